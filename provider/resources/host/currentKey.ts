/**
 * Which API key a provider method runs with when the API refuses the configured one.
 *
 * Pulumi configures a provider with the stack config it recorded at the last `pulumi up`: a
 * `pulumi destroy` or `pulumi refresh` that does not run the program (their default) gets that
 * config, `clouddb:apiKey` included, not the one set since. After a key rotation the recorded key is
 * revoked, and every delete would fail with 401. The environment is always this run's: when
 * `CLOUDDB_API_KEY` holds another key, the method runs again with it (a 401 means the API changed
 * nothing). Otherwise the error says how to give the run the current key.
 */
import { isUnauthorized } from "../../client/errors";
import { ResourceError } from "../errors";
import { otherEnvironmentKey } from "./settings";

/**
 * `run` with the configured key, then, when the API refuses it (401), with the other key of
 * `CLOUDDB_API_KEY`; without one, throws an error naming `what` failed and how to pass the current key.
 */
export async function withCurrentKey<T>(
  what: string,
  run: (apiKey: string | undefined) => Promise<T>,
): Promise<T> {
  try {
    return await run(undefined);
  } catch (err) {
    if (!isUnauthorized(err)) throw err;
    const current = otherEnvironmentKey();
    if (current !== undefined) return run(current);
    const id = err.requestId === undefined ? "" : `, request id ${err.requestId}`;
    throw new ResourceError(
      "KeyRefused",
      `${what} failed: the API refused the API key (401 Unauthorized${id}). If clouddb:apiKey changed since ` +
        "the last `pulumi up`: a `pulumi destroy` or `pulumi refresh` that does not run the program is given the " +
        "stack config that up recorded, old key included; run it with `--run-program` (or PULUMI_RUN_PROGRAM=true) " +
        "to use the current clouddb:apiKey, or set CLOUDDB_API_KEY to a valid key. Otherwise set a valid key with " +
        "`pulumi config set --secret clouddb:apiKey <key>`.",
      err,
    );
  }
}
