"""A review stack per pull request, for any CI system: automation.ts in Python.

`up <number>` makes or updates stack `pr-<number>` of ../pull-request-database/python (its config
`projectId` from CLOUDDB_PROJECT_ID and `pullRequest`), refreshes it, runs `up`, and prints its
non-secret outputs as one JSON object on stdout; `destroy <number>` destroys the stack and removes
it. The engine's progress goes to stderr. The backend, the passphrase and the provider's key come
from the environment as the `pulumi` CLI takes them (PULUMI_BACKEND_URL or `pulumi login`,
PULUMI_CONFIG_PASSPHRASE, CLOUDDB_API_KEY); REVIEW_PROGRAM_DIR names another program folder.
"""
import json
import os
import re
import sys

from pulumi import automation as auto

# The outputs printed after an `up`: none of them holds a credential.
PRINTED = ("branchId", "host", "expiresAt", "schemaDiff")

USAGE = "usage: automation.py up|destroy <pull request number>"


def program_dir() -> str:
    """The program a review stack runs: REVIEW_PROGRAM_DIR, else the example's Python program."""
    default = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pull-request-database", "python")
    return os.environ.get("REVIEW_PROGRAM_DIR") or default


def progress(line: str) -> None:
    """Engine output, kept off stdout so that stdout holds only the outputs' JSON."""
    sys.stderr.write(line if line.endswith("\n") else line + "\n")


def up(pr: str) -> dict:
    """Makes or updates the review stack of pull request `pr`; answers its printed outputs."""
    project_id = os.environ.get("CLOUDDB_PROJECT_ID")
    if not project_id:
        raise RuntimeError("CLOUDDB_PROJECT_ID is not set")
    stack = auto.create_or_select_stack(stack_name=f"pr-{pr}", work_dir=program_dir())
    stack.set_all_config(
        {"projectId": auto.ConfigValue(value=project_id), "pullRequest": auto.ConfigValue(value=pr)}
    )
    # The branch may have expired or been deleted since the last run: the state learns it first.
    stack.refresh(on_output=progress)
    result = stack.up(on_output=progress)
    return {
        name: result.outputs[name].value
        for name in PRINTED
        if name in result.outputs and not result.outputs[name].secret
    }


def destroy(pr: str) -> None:
    """Destroys the review stack of pull request `pr` and removes it; raises when it has none."""
    stack = auto.select_stack(stack_name=f"pr-{pr}", work_dir=program_dir())
    stack.destroy(on_output=progress)
    stack.workspace.remove_stack(stack.name)


def main(argv: list) -> int:
    if len(argv) != 2 or argv[0] not in ("up", "destroy") or not re.fullmatch(r"[0-9]+", argv[1]):
        sys.stderr.write(USAGE + "\n")
        return 2
    command, pr = argv
    try:
        if command == "up":
            sys.stdout.write(json.dumps(up(pr)) + "\n")
        else:
            destroy(pr)
    except Exception as err:  # the engine's message, as the CLI would print it
        sys.stderr.write(f"{err}\n")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
