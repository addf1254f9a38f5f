import { describe, expect, it } from 'vitest';
import { REDACTED } from '../../../src/core/redaction.ts';
import { Redactor } from '../../../src/report/model/redact.ts';

const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.c2VjcmV0LXRva2Vu.sig-Abc123';
const CLIENT_SECRET = 'cs_live_"quoted"&<odd>';

describe('Redactor', () => {
  const redactor = new Redactor([TOKEN, CLIENT_SECRET, '', undefined]);

  it('replaces every secret in free text, also in its JSON, HTML, URL and base64 spellings', () => {
    const text = [
      `token ${TOKEN} twice ${TOKEN}`,
      JSON.stringify({ note: `secret ${CLIENT_SECRET}` }),
      'cs_live_&quot;quoted&quot;&amp;&lt;odd&gt;',
      encodeURIComponent(CLIENT_SECRET),
      Buffer.from(TOKEN).toString('base64'),
    ].join('\n');
    const out = redactor.text(text);
    expect(out).not.toContain(TOKEN);
    expect(out).not.toContain('cs_live_');
    expect(out).not.toContain(Buffer.from(TOKEN).toString('base64'));
    expect(out.split(REDACTED).length - 1).toBeGreaterThanOrEqual(6);
  });

  it('redacts Authorization and Cookie values it was not told about, in lines and JSON', () => {
    const out = redactor.text(
      'Authorization: Bearer other-token-123\n{"Cookie":"session=abc","authorization":"Basic dXNlcjpwYXNz"}\ncurl -H \'authorization: Bearer zzz\'',
    );
    expect(out).not.toMatch(/other-token-123|session=abc|dXNlcjpwYXNz|zzz/);
    expect(out).toContain(`Authorization: Bearer ${REDACTED}`);
  });

  it('keeps the $CONFORMANCE_TOKEN placeholder so curl lines stay usable', () => {
    const curl = "curl -H 'Authorization: Bearer $CONFORMANCE_TOKEN' http://127.0.0.1/v2";
    expect(redactor.text(curl)).toBe(curl);
  });

  it('redacts token responses and form-encoded client secrets', () => {
    const out = redactor.text('{"access_token": "tok-9", "token_type":"bearer"}\ngrant_type=client_credentials&client_secret=s3cr3t&scope=a');
    expect(out).not.toMatch(/tok-9|s3cr3t/);
    expect(out).toContain('token_type');
  });

  it('deep-copies data with credential headers, HAR header pairs and token fields redacted', () => {
    const input = {
      headers: { Authorization: 'Bearer live-1', 'x-trace': `t ${TOKEN}` },
      har: [{ name: 'authorization', value: 'Bearer live-2' }],
      body: { access_token: 'live-3', nested: [`${TOKEN}`], [`key-${TOKEN}`]: 1 },
    };
    const out = redactor.value(input);
    const text = JSON.stringify(out);
    expect(text).not.toMatch(/live-1|live-2|live-3/);
    expect(text).not.toContain(TOKEN);
    expect(out.headers.Authorization).toBe(`Bearer ${REDACTED}`);
    expect(input.headers.Authorization).toBe('Bearer live-1');
  });
});

describe('Redactor with a short secret', () => {
  const redactor = new Redactor(['t']);

  it('replaces it where it stands alone and leaves words that contain it alone', () => {
    expect(redactor.text('target: Bearer t, {"token":"t"} t')).toBe(`target: Bearer ${REDACTED}, {"token":"${REDACTED}"} ${REDACTED}`);
    expect(redactor.value({ target: { baseUrl: 'http://127.0.0.1' } })).toEqual({ target: { baseUrl: 'http://127.0.0.1' } });
  });
});
