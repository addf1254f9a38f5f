/**
 * --redact-personal: replaces the personal values of a bundle's files with stand-ins. Placeholder
 * until the redaction lands: refuses, so no bundle claims a redaction it did not make.
 */
import { UsageError } from '../../../core/errors.ts';
import type { ArchiveMember } from './tar-archive.ts';

/** The members with every personal value replaced, and how many distinct values were. */
export function redactPersonalValues(_members: readonly ArchiveMember[]): { members: ArchiveMember[]; values: number } {
  throw new UsageError('--redact-personal is not available yet');
}
