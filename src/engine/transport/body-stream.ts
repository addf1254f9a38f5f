/**
 * Reads a response body under a cap, whatever the target sends: the first MAX_BODY_BYTES are
 * kept, the rest is counted and dropped. A conformant answer is a few KB; a 100 MB answer or a
 * gzip bomb costs the harness at most the cap. Content codings are undone as the bytes arrive,
 * under the same cap.
 *
 * When the stream stops: at its end; or, once the kept part is full, at the deadline, at a
 * dropped connection or past MAX_COUNTED_BYTES, where the response is destroyed (its socket
 * closed) and `receivedBytes` is what had arrived by then, a lower bound. Before the kept part
 * is full, a deadline or a dropped connection is an error, as it was without a cap.
 */
import type { Readable, Transform } from 'node:stream';
import zlib from 'node:zlib';

/** Bytes of a body kept per exchange (after its content coding is undone). */
export const MAX_BODY_BYTES = 1024 * 1024;
/** Bytes counted before an endless body is cut off: counting costs time, not memory. */
export const MAX_COUNTED_BYTES = 256 * 1024 * 1024;

export interface BodyRead {
  /** The first bytes of the body, at most the cap. */
  bytes: Buffer;
  /** Bytes of the body seen (decoded, when a coding was undone); more than `bytes` when cut. */
  receivedBytes: number;
}

/** The first `cap` bytes of a stream, and a count of all. */
class Kept {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  received = 0;

  constructor(private readonly cap: number) {}

  add(chunk: Buffer): void {
    this.received += chunk.length;
    if (this.kept >= this.cap) return;
    const part = chunk.length <= this.cap - this.kept ? chunk : chunk.subarray(0, this.cap - this.kept);
    this.chunks.push(part);
    this.kept += part.length;
  }

  get full(): boolean {
    return this.received > this.cap;
  }

  read(): BodyRead {
    return { bytes: Buffer.concat(this.chunks, this.kept), receivedBytes: this.received };
  }
}

/** The decoder of a content coding the harness can undo (RFC 9110 8.4.1); none for identity or unknown ones. */
function decoderFor(coding: string | undefined): Transform | undefined {
  switch (coding?.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip();
    case 'deflate':
      return zlib.createInflate();
    case 'br':
      return zlib.createBrotliDecompress();
    default:
      return undefined;
  }
}

export interface ReadLimits {
  keep: number;
  count: number;
}

/**
 * Reads `source` to its end (see the file comment for when it stops sooner). Rejects with the
 * stream's error, or the signal's reason, when the body ended early before the kept part was full.
 */
export function readBody(
  source: Readable,
  coding: string | undefined,
  signal: AbortSignal,
  limits: ReadLimits = { keep: MAX_BODY_BYTES, count: MAX_COUNTED_BYTES },
): Promise<BodyRead> {
  return new Promise<BodyRead>((resolve, reject) => {
    const wire = new Kept(limits.keep);
    const plain = new Kept(limits.keep);
    const decoder = decoderFor(coding);
    let decoding = decoder !== undefined;
    let wireEnded = false;
    let settled = false;
    /** What the body is: the decoded bytes, or the wire's when there is no coding or it did not decode. */
    const body = () => (decoding ? plain : wire);

    const settle = (error?: unknown) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      if (error !== undefined) {
        source.destroy();
        decoder?.destroy();
        if (!body().full) return reject(error);
      }
      resolve(body().read());
    };
    const onAbort = () => settle(signal.reason ?? new Error('aborted'));
    const tooLong = () => Math.max(wire.received, plain.received) > limits.count && settle(new Error(`more than ${limits.count} bytes`));

    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    source.on('data', (chunk: Buffer) => {
      wire.add(chunk);
      // Backpressure: a slow decoder pauses the socket instead of queuing compressed bytes.
      if (decoding && !decoder!.write(chunk)) {
        source.pause();
        decoder!.once('drain', () => source.resume());
      }
      tooLong();
    });
    source.on('end', () => {
      wireEnded = true;
      if (decoding) decoder!.end();
      else settle();
    });
    source.on('error', (error) => settle(error));
    // A connection dropped mid-body may only close (IncomingMessage 'aborted' then 'close').
    source.on('close', () => wireEnded || settle(new Error('the connection closed before the body ended')));
    decoder?.on('data', (chunk: Buffer) => {
      plain.add(chunk);
      tooLong();
    });
    decoder?.on('end', () => settle());
    decoder?.on('error', () => {
      // A body that does not decode is kept as it came; the checks report it as not JSON.
      decoding = false;
      decoder.destroy();
      source.resume();
      if (wireEnded) settle();
    });
  });
}
