import type * as pulumi from "@pulumi/pulumi";
import { output } from "@pulumi/pulumi/output";
import type { FunctionArgsOf, FunctionResultOf, ResultObjectOf } from "../resources/public/shapes";
import { dataSourceClient } from "./credentials";
import type { GET_PRELOAD_LIBRARIES, PRELOAD_LIBRARY } from "./declared";
import type { DataSourceOptions } from "./options";

/** Arguments of {@link getPreloadLibraries}. */
export interface GetPreloadLibrariesArgs extends FunctionArgsOf<typeof GET_PRELOAD_LIBRARIES> {}

/** A shared preload library a project can enable. */
export interface PreloadLibrary extends ResultObjectOf<typeof PRELOAD_LIBRARY.properties> {}

/** Result of {@link getPreloadLibraries}. */
export interface GetPreloadLibrariesResult extends FunctionResultOf<typeof GET_PRELOAD_LIBRARIES> {}

/** Lists the shared preload libraries the project's Postgres version offers. Throws the client's typed errors (404 for an unknown project). */
export async function getPreloadLibraries(
  args: GetPreloadLibrariesArgs,
  opts: DataSourceOptions = {},
): Promise<GetPreloadLibrariesResult> {
  const libraries = await dataSourceClient(opts).listPreloadLibraries(args.projectId);
  return {
    libraries: libraries.map((l) => ({
      name: l.library_name,
      description: l.description,
      version: l.version,
      isDefault: l.is_default,
      isExperimental: l.is_experimental,
    })),
  };
}

/** {@link getPreloadLibraries} taking Inputs and returning an Output. */
export function getPreloadLibrariesOutput(
  args: pulumi.Input<GetPreloadLibrariesArgs>,
  opts: DataSourceOptions = {},
): pulumi.Output<GetPreloadLibrariesResult> {
  return output(args).apply((a) => getPreloadLibraries(a as GetPreloadLibrariesArgs, opts));
}
