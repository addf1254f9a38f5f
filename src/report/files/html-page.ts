/**
 * The opening of the self-contained pages (report.html, the matrix): one place for the doctype,
 * the charset, the viewport, the Content-Security-Policy, the title and the inline stylesheet.
 */
import { escapeHtml } from './escape.ts';

/** Everything up to `</head>`. `csp` is the harness's own policy, written as given; `title` is escaped. */
export function htmlHead(title: string, csp: string, style: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<title>${escapeHtml(title)}</title>
<style>${style}</style>
</head>`;
}
