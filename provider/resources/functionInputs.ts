/**
 * A `Function`'s inputs as the provider sees them (docs/api-rules.md §27): the zod schema with the
 * runtime and environment-name rules, the slug `check` generates, the code's hash, and how a change
 * of the code or the environment is compared and named at preview.
 */
import { z } from "zod";
import { givenOrGenerated } from "./errors";
import { adoptInput, ProjectOfBranchInput, requiredId } from "./inputs/common";
import { archiveOf, sha256 } from "./inputs/zip";
import type { Same } from "./lifecycle/define";
import type { FunctionInputs, FunctionOutputs } from "./public/function";

/** The runtimes the service runs (the official document's list), the first its default. */
const RUNTIMES = ["nodejs24"] as const;

/** A variable name every shell and runtime can read: the API states no rule of its own. */
const ENVIRONMENT_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Inputs as the provider sees them. */
export const FunctionInputsSchema = z
  .object({
    projectId: ProjectOfBranchInput,
    branchId: requiredId("branchId", "the branch the function is on (br-...)"),
    slug: z
      .string({ error: "slug must be a string: the function's slug on its branch" })
      .regex(/^[a-z0-9]{1,20}$/, "slug is 1 to 20 lowercase letters and digits; omit it for a generated one")
      .optional(),
    name: z
      .string({ error: "name must be a string" })
      .trim()
      .min(1, "name must not be blank; omit it to show the slug")
      .max(256, "name is at most 256 characters")
      .optional(),
    runtime: z
      .string({ error: "runtime must be a string" })
      .refine((runtime) => (RUNTIMES as readonly string[]).includes(runtime), {
        message: `runtime must be one the service runs: ${RUNTIMES.join(", ")}; omit it for ${RUNTIMES[0]}`,
      })
      .optional(),
    environment: z
      .record(z.string(), z.string({ error: "environment values must be strings" }))
      .superRefine((variables, ctx) => {
        for (const name of Object.keys(variables).filter((n) => !ENVIRONMENT_NAME.test(n)))
          ctx.addIssue({
            code: "custom",
            message:
              `environment variable ${JSON.stringify(name)} is not a variable name: a name is letters, ` +
              "digits and _, not starting with a digit (such as API_TOKEN); rename it",
          });
      })
      .optional(),
    source: z.string({ error: "source must be a folder path" }).min(1, "source must not be empty").optional(),
    archive: z
      .string({ error: "archive must be a .zip path" })
      .min(1, "archive must not be empty")
      .optional(),
    adoptExisting: adoptInput("function (its slug on the branch)"),
  })
  .refine((inputs) => (inputs.source === undefined) !== (inputs.archive === undefined), {
    path: ["source"],
    message: "give exactly one of source (a folder) or archive (a .zip file) with the function's code",
  });

// The schema validates exactly the public inputs.
true satisfies Same<z.infer<typeof FunctionInputsSchema>, FunctionInputs>;

/** Inputs whose slug is known: the program's, or the one `check` generated. */
export type Slugged = FunctionInputs & { slug: string };

export function slugged(inputs: FunctionInputs): Slugged {
  return { ...inputs, slug: givenOrGenerated("function", "slug", inputs.slug) };
}

/** The hash of the code the inputs name; read from disk at every preview, nothing uploaded. */
export function hashOf(inputs: FunctionInputs): string | undefined {
  try {
    return sha256(archiveOf(inputs));
  } catch {
    return undefined;
  }
}

/** A code input is the same when the path is and the archive it gives still hashes to `sourceHash`. */
export function sameCode(
  news: string | undefined,
  olds: unknown,
  all: { news: FunctionInputs; olds: FunctionOutputs },
) {
  const hash = (all.news as { sourceHash?: string }).sourceHash ?? hashOf(all.news);
  return news === olds && (news === undefined || hash === all.olds.sourceHash);
}

/** A code input's change: the path itself when it changed, and `sourceHash` when the code did. */
export function codeDetails(
  field: "source" | "archive",
  olds: FunctionOutputs,
  news: FunctionInputs,
): Record<string, "add" | "update" | "delete"> {
  const path =
    news[field] === olds[field]
      ? {}
      : ({
          [field]: olds[field] === undefined ? "add" : news[field] === undefined ? "delete" : "update",
        } as const);
  const hash = (news as { sourceHash?: string }).sourceHash ?? hashOf(news);
  return hash === olds.sourceHash ? path : { ...path, sourceHash: "update" };
}

/**
 * Each variable added, removed or given a new value, as `environment.NAME`; the map itself when none
 * is, or when either map is not known yet (a preview passes an unknown value as a placeholder string).
 */
export function environmentDetails(
  olds: Record<string, string> | undefined,
  news: Record<string, string> | undefined,
): Record<string, "add" | "update" | "delete"> {
  const isMap = (value: unknown) => value === undefined || (typeof value === "object" && value !== null);
  if (!isMap(olds) || !isMap(news)) return { environment: olds === undefined ? "add" : "update" };
  const before = olds ?? {};
  const after = news ?? {};
  const names = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  const changed: Record<string, "add" | "update" | "delete"> = {};
  for (const name of names) {
    if (!(name in before)) changed[`environment.${name}`] = "add";
    else if (!(name in after)) changed[`environment.${name}`] = "delete";
    else if (before[name] !== after[name]) changed[`environment.${name}`] = "update";
  }
  return Object.keys(changed).length > 0 ? changed : { environment: olds === undefined ? "add" : "update" };
}
