/** The entry point `bin/clouddb` runs: `main` with the process's arguments, its answer as the exit code. */
import { main } from "./main";

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`clouddb: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
