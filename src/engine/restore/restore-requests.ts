/**
 * What restoring the pool accounts may cost (docs/design.md section 2, "What a run leaves
 * behind"): per account a read at the start, a read at the end, a write-back only when something
 * differs, and a read-back only after a write. A request budget must keep this much room.
 */
export const RESTORE_REQUESTS_PER_ACCOUNT = 4;

/** The most requests restoring `accounts` pool accounts sends. */
export const restoreRequests = (accounts: number): number => accounts * RESTORE_REQUESTS_PER_ACCOUNT;
