/**
 * Run by har-file.test.ts in a child process: two exchanges go into a HAR, then the process
 * exits without finishing it, as a second Ctrl-C does. The exit hook must leave valid JSON.
 */
import { HarFile } from '../../src/report/files/har-file.ts';
import { sampleExchanges } from './sample-report.ts';

const har = new HarFile(process.argv[2], { name: 'conformance', version: '0' }, () => []);
for (const exchange of sampleExchanges().slice(0, 2)) har.add(exchange);
process.exit(130);
