import * as path from "node:path";

const NODE_MODULES = `${path.sep}node_modules${path.sep}`;

/**
 * The specifier a serialized provider uses to `require()` one of this package's compiled modules at
 * run time. Pulumi stores the provider's code in the state, so it must not capture the client (its
 * `got` instance, schemas, registries) by value: the provider methods require it by this specifier.
 * Installed from a registry the specifier is `pulumi-clouddb/lib/...`, which resolves from the
 * program's own `node_modules` on any machine; in a checkout it is the absolute path of the file.
 */
export function moduleRef(file: string): string {
  const at = file.lastIndexOf(NODE_MODULES);
  if (at < 0) return file;
  return file
    .slice(at + NODE_MODULES.length)
    .split(path.sep)
    .join("/");
}
