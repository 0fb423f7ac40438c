import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { coverageSection } from './html-coverage.js';
import { html, SafeHtml } from './html-escape.js';
import { failuresSection } from './html-failures.js';
import { runNotesSection } from './html-run-notes.js';
import { PAGE_CSS, PAGE_SCRIPT } from './html-style.js';
import { verdictOf, verdictSection } from './html-verdict.js';
import type { ConformanceReport } from './report.js';

/** What a caller adds to the page of a report: facts for the top (the proxy's exchange counts, say). */
export interface HtmlReportOptions {
  facts?: ReadonlyArray<[string, string]>;
}

/**
 * One self-contained page (inline style and a few lines of script, nothing fetched) around `body`. The
 * content security policy forbids every request, so a page opened from file:// cannot reach out.
 */
export function htmlPage(title: string, body: SafeHtml, toc: ReadonlyArray<[string, string]>): string {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<title>${title}</title>
<style>${new SafeHtml(PAGE_CSS)}</style>
</head><body><a class="skip" href="#content">Skip to the report</a>
<main id="content">
<nav class="toc" aria-label="Sections"><ul>${toc.map(([id, label]) => html`<li><a href="#${id}">${label}</a></li>`)}</ul></nav>
${body}
<footer>Written by docproc-kit from the JSON report; everything here is in that JSON. No key and no file's bytes are ever in a report.</footer>
</main><script>${new SafeHtml(PAGE_SCRIPT)}</script></body></html>
`.text;
}

/**
 * The report as a page people read: the verdict first, every failure with Received and Expected side by
 * side and its reproducer, coverage as a matrix, then resends, warnings and what was not exercised.
 * @example writeFileSync('conformance.html', renderHtmlReport(report));
 */
export function renderHtmlReport(report: ConformanceReport, options: HtmlReportOptions = {}): string {
  const failures = report.checks.reduce((sum, c) => sum + c.failures.length, 0) + report.unattributed.length;
  const toc: Array<[string, string]> = [
    ['verdict', 'Verdict'],
    ['failures', `Failures (${failures})`],
    ['coverage', 'Coverage'],
    ['run-notes', 'Resends, warnings, not exercised'],
  ];
  const body = html`${verdictSection(report, options.facts)}${failuresSection(report)}${coverageSection(report)}${runNotesSection(report)}`;
  return htmlPage(`${verdictOf(report).word}: ${report.tool} of ${report.target}`, body, toc);
}

/** Writes {@link renderHtmlReport}'s page to `file` (its folder made when missing). */
export function writeHtmlReport(report: ConformanceReport, file: string, options?: HtmlReportOptions): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, renderHtmlReport(report, options));
}
