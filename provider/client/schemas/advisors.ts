/** A project's advisor findings, and the shared preload libraries its Postgres version offers. */
import { z } from "zod";
import { DOCUMENTED } from "./common";

/** One issue an advisor check found; `level`, `facing` and `categories` accept values not listed yet. */
export const AdvisorIssueSchema = z.looseObject({
  name: z.string(),
  title: z.string(),
  level: z.string(),
  facing: z.string(),
  categories: z.array(z.string()),
  description: z.string(),
  detail: z.string(),
  remediation: z.string(),
  metadata: z.record(z.string(), z.unknown()),
  cache_key: z.string(),
});
DOCUMENTED.add(AdvisorIssueSchema, { as: "AdvisorIssue" });
/** An advisor issue. */
export type AdvisorIssue = z.infer<typeof AdvisorIssueSchema>;

/** `GET /projects/{project_id}/advisors` */
export const AdvisorIssuesResponseSchema = z.looseObject({ issues: z.array(AdvisorIssueSchema) });
DOCUMENTED.add(AdvisorIssuesResponseSchema, { as: "GET /projects/{project_id}/advisors 200" });

/** A shared preload library a project can enable. */
export const PreloadLibrarySchema = z.looseObject({
  library_name: z.string(),
  description: z.string(),
  is_default: z.boolean(),
  is_experimental: z.boolean(),
  version: z.string(),
});
DOCUMENTED.add(PreloadLibrarySchema, { as: "AvailablePreloadLibrary" });
/** A shared preload library. */
export type PreloadLibrary = z.infer<typeof PreloadLibrarySchema>;

/** `GET /projects/{project_id}/available_preload_libraries`: the list may be absent, read as empty. */
export const PreloadLibrariesResponseSchema = z.looseObject({
  libraries: z
    .array(PreloadLibrarySchema)
    .nullish()
    .transform((v) => v ?? []),
});
DOCUMENTED.add(PreloadLibrariesResponseSchema, { as: "AvailablePreloadLibraries" });
