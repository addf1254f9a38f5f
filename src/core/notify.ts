/**
 * Calls every listener with an event, in order. A listener that throws is skipped: it must not
 * take the run or the other listeners down (docs/design.md section 4.5).
 */
export async function notifyAll<E>(listeners: readonly ((event: E) => void | Promise<void>)[], event: E): Promise<void> {
  for (const listener of listeners) {
    try {
      await listener(event);
    } catch {
      // A broken reporter loses its own output only.
    }
  }
}
