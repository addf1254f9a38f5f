/** src/schema/api-types.ts is what schemas/ generate today: a schema change without regenerating fails here. */
import { describe, expect, it } from 'vitest';
import { GENERATE_COMMAND, committedTypes, generateTypes } from '../../scripts/generate-types.ts';

describe('the TypeScript types of the API', () => {
  it('match what schemas/ generate now', async () => {
    const generated = await generateTypes();
    expect(generated).toContain('export interface UpdateFiatAccountRequest');
    expect(committedTypes() === generated, `src/schema/api-types.ts has drifted from schemas/: run \`${GENERATE_COMMAND}\` and commit it`).toBe(true);
  });
});
