/** The entry point `bin/clouddb` runs: a command with the process's arguments, its answer as the exit code. */
import { fromTerraform } from "../terraform/main";
import { main } from "./main";

const argv = process.argv.slice(2);
const run =
  argv[0] === "from-terraform"
    ? Promise.resolve(
        fromTerraform(argv.slice(1), {
          out: (text) => process.stdout.write(text),
          err: (line) => process.stderr.write(`${line}\n`),
        }),
      )
    : main(argv);
run.then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`clouddb: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
