/** What replaces a secret wherever one would be recorded or written (transport, reports, console). */
export const REDACTED = '[REDACTED]';
