// Rows that name a queue instead of a time. Named queues (and their next free slot) are a feature of their own; until
// it is wired here, every such row is refused with a clear message, and nothing else in bulk import knows queues.

/** The time of the next free slot of `queue` in the workspace, or why the row cannot be placed. */
export async function placeInQueue(_workspaceId: string, _queue: string, _now: Date): Promise<Date | string> {
  return 'queues are not available on this server yet: give the row a time instead.';
}
