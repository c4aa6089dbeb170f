/**
 * One "pipeline" for the shared-limiter tests: a separate process that creates COUNT project-scoped
 * keys at START_AT through the client, and prints what it saw as one JSON line (the test reads the
 * timing from the emulator's request log).
 */
import { createClient } from "../../../provider/client";

async function main(): Promise<void> {
  const count = Number(process.env.COUNT);
  const startAt = Number(process.env.START_AT);
  let rateLimited = 0;
  let unavailable = 0;
  const client = createClient({
    onEvent: (event) => {
      if (event.type === "response" && event.status === 429) rateLimited++;
      if (event.type === "limiter-unavailable") unavailable++;
    },
  });
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, startAt - Date.now())));
  await Promise.all(
    Array.from({ length: count }, (_, i) =>
      client.createOrgApiKey(process.env.ORG_ID as string, {
        keyName: `pipeline-${process.pid}-${i}`,
        projectId: process.env.PROJECT_ID,
      }),
    ),
  );
  process.stdout.write(`${JSON.stringify({ rateLimited, unavailable })}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
