/**
 * Per-project mutex queue: mutating calls for one project run one at a time, in arrival order, so
 * parallel Pulumi steps do not provoke 423s; calls for different projects run concurrently.
 */

/** A FIFO mutex per key. */
export class ProjectQueues {
  private readonly tails = new Map<string, Promise<void>>();
  private readonly depth = new Map<string, number>();

  /** Run `task` once every earlier task for `projectId` has settled; resolves/rejects with it. */
  run<T>(projectId: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(projectId) ?? Promise.resolve();
    this.depth.set(projectId, (this.depth.get(projectId) ?? 0) + 1);
    const result = previous.then(task);
    // The tail never rejects, so one failure does not poison the tasks queued after it.
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(projectId, tail);
    void tail.then(() => {
      const left = (this.depth.get(projectId) ?? 1) - 1;
      if (left <= 0) this.depth.delete(projectId);
      else this.depth.set(projectId, left);
      if (this.tails.get(projectId) === tail) this.tails.delete(projectId);
    });
    return result;
  }

  /** Tasks queued or running for `projectId`. */
  pending(projectId: string): number {
    return this.depth.get(projectId) ?? 0;
  }
}
