/**
 * A run with a static --token cannot renew its token: the rules that need a renewal are ruled out
 * by --token (not run, not blocking without --strict). Tests about other things leave them aside
 * by this, not by their ids.
 */
export const staticTokenRuledOut = (rule: { status: string; ruledOutBy?: { setting: string } }): boolean =>
  rule.status === 'inconclusive' && rule.ruledOutBy?.setting === '--token';
