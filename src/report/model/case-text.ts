/**
 * A failing case as the renderers show it: its mode and what the document says of it, e.g.
 * `invalid, forbidden` or `valid, open: person_details.first_name, alphabet cjk`.
 */
import type { Intent, OpenProbe } from '../../core/open-point.ts';
import type { ReportFailure } from './model.ts';

type ReportCase = ReportFailure['case'];

/** The case's intent; a report before 1.7.0 has none, and there it follows from the mode (case.ts intentOf). */
export function intentOfCase(c: ReportCase): Intent {
  if (c.intent) return c.intent;
  if (c.open) return 'open';
  return c.mode === 'invalid' ? 'forbidden' : 'guaranteed';
}

/** `person_details.first_name, alphabet cjk` */
export const probeText = (open: OpenProbe): string => `${open.field}, ${open.kind} ${open.value}`;

/** `valid, guaranteed`; an open case adds the point it varies. */
export function caseModeText(c: ReportCase): string {
  const intent = intentOfCase(c);
  return `${c.mode}, ${intent}${c.open ? `: ${probeText(c.open)}` : ''}`;
}
