/**
 * Valid twins: every invalid and boundary case carries its nearest valid twin (`control`), the
 * same payload with the one defect removed or moved off the limit. When the target refuses both,
 * the refusal is not about the case's rule, and the case judges nothing.
 */
import type { RuleId } from '../../core/catalogue.ts';
import type { TestCase } from '../../core/case.ts';

export interface TwinOptions {
  /** The twin itself sits on another limit: a boundary case of that rule. */
  exercises?: RuleId;
  /**
   * A pool-independent fiat account id the twin keeps. Left out, the twin has none and the runner
   * sends it to a real account (so the twin of a malformed or unknown id is an ordinary update).
   */
  fiatAccountId?: string;
  /**
   * A twin on another limit has a twin of its own (the body off that limit too): when every
   * request is refused, the refused twin then blames the rule of valid requests, not that limit.
   */
  twinOfTwin?: unknown;
}

const TWIN = ' (valid twin)';
/** A twin's label: the case's with the suffix once (the twin of a twin is a valid twin too, not a twin twice over). */
export const twinLabel = (label: string): string => (label.endsWith(TWIN) ? label : `${label}${TWIN}`);

/** `c` with `control`: a case of the same operation, `twinBody` as body, valid (or boundary). */
export function withControl(c: TestCase, twinBody: unknown, options: TwinOptions = {}): TestCase {
  const control: TestCase = {
    operation: c.operation,
    mode: options.exercises ? 'boundary' : 'valid',
    ...(options.exercises ? { exercises: options.exercises } : {}),
    label: twinLabel(c.label),
    body: twinBody,
    ...(options.fiatAccountId !== undefined ? { fiatAccountId: options.fiatAccountId } : {}),
  };
  if (options.twinOfTwin !== undefined) return { ...c, control: withControl(control, options.twinOfTwin) };
  return { ...c, control };
}
