/**
 * What a create that takes an object a killed run made still waits for. Types only from the
 * client, so a program that declares resources does not load it.
 */
import type { Operation } from "../../client";
import type { Step } from "./define";

/**
 * The project's operations `of` selects that have not ended well yet (newest thousand): what a
 * create that takes an object a killed run made still waits for.
 */
export async function openOperations(
  client: Step["client"],
  projectId: string,
  of: (op: Operation) => boolean = () => true,
): Promise<Operation[]> {
  const ops: Operation[] = [];
  for await (const op of client.listOperations(projectId, { pageSize: 100, maxItems: 1000 })) {
    if (of(op) && op.status !== "finished" && op.status !== "skipped") ops.push(op);
  }
  return ops;
}
