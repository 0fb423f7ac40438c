import { bundledSpecPath } from '@docproc-kit/contract/paths.js';
import { html, type SafeHtml } from './html-escape.js';
import type { ConformanceReport } from './report.js';

/** The run's verdict in one word, as the console's headline says it. */
export function verdictOf(report: ConformanceReport): { word: string; tone: 'passed' | 'failed' | 'stopped'; icon: string; why: string } {
  if (report.stopped?.reason === 'unavailable')
    return { word: 'UNAVAILABLE', tone: 'stopped', icon: '⚠', why: `${report.stopped.message} (exit 2: not judged)` };
  if (report.result === 'failed') return { word: 'FAILED', tone: 'failed', icon: '✗', why: 'at least one check failed' };
  if (report.stopped)
    return { word: 'STOPPED', tone: 'stopped', icon: '⚠', why: `${report.stopped.message}: the page has what the run had` };
  return { word: 'PASSED', tone: 'passed', icon: '✓', why: 'every check that ran passed' };
}

const quote = (word: string) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`);

/**
 * The command that runs the same random sequences against the same target again. Keys are never in a
 * report: the command names the environment variables a CI job keeps them in.
 */
export function rerunCommand(report: ConformanceReport): string | undefined {
  if (report.tool !== 'docproc conformance') return undefined;
  const tenancy = report.checks.some((c) => c.area === 'tenancy' && (c.passes > 0 || c.failures.length > 0));
  return [
    'docproc conformance',
    `--base-url ${quote(report.target)}`,
    '--api-key "$DOCPROC_API_KEY"',
    ...(tenancy ? ['--second-api-key "$DOCPROC_SECOND_API_KEY"'] : []),
    `--profile ${report.profile}`,
    ...(report.seed !== undefined ? [`--seed ${report.seed}`] : []),
    ...(report.only ? [`--only ${report.only.join(',')}`] : []),
    ...(report.strict ? ['--strict'] : []),
    ...(report.spec !== bundledSpecPath ? [`--spec ${quote(report.spec)}`] : []),
    ...(report.insecure ? ['--insecure'] : []),
  ].join(' \\\n  ');
}

function duration(report: ConformanceReport): string {
  const ms = Date.parse(report.finishedAt) - Date.parse(report.startedAt);
  if (!Number.isFinite(ms)) return 'unknown';
  return ms < 60_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** A copy button for the text of the element `id`. */
export function copyButton(id: string, what: string): SafeHtml {
  return html`<button type="button" data-copy="${id}" aria-label="Copy ${what}">Copy</button>`;
}

/** The top of the page: the verdict, the facts of the run, the counts of outcomes, and the command to rerun it. */
export function verdictSection(report: ConformanceReport, extraFacts: ReadonlyArray<[string, string]> = []): SafeHtml {
  const v = verdictOf(report);
  const s = report.summary;
  const rerun = rerunCommand(report);
  const counts: Array<readonly [string, string, number, string]> = [
    ['o-passed', '✓', s.passed, 'passed'],
    ['o-failed', '✗', s.failed, 'failed'],
    ['o-warned', '!', s.warned, 'warned'],
    ['o-none', '○', s['not-exercised'], 'not exercised'],
    ...(s['not-in-profile'] ? ([['o-none', '–', s['not-in-profile'], 'only in the full profile']] as const) : []),
    ...(report.unattributed.length ? ([['o-failed', '✗', report.unattributed.length, 'crashed (no check)']] as const) : []),
  ];
  return html`<header>
  <h1>${report.tool} report</h1>
  <div class="verdict v-${v.tone}" role="status" id="verdict" data-result="${report.result}">
    <span class="word"><span aria-hidden="true">${v.icon}</span> ${v.word}</span><span>${v.why}</span>
  </div>
  <ul class="counts" aria-label="Checks by outcome">
    ${counts.map(([cls, icon, n, label]) => html`<li class="${n ? cls : 'o-zero'}" data-outcome="${label}"><span aria-hidden="true">${icon}</span> ${n} ${label}</li>`)}
  </ul>
  <dl class="facts">
    <dt>Target</dt><dd><code>${report.target}</code></dd>
    ${report.insecure && html`<dt>TLS</dt><dd><strong>not verified</strong> (--insecure): nothing proves who answered</dd>`}
    <dt>Profile</dt><dd>${report.profile}${report.strict ? ', strict' : ''}${report.only ? `, only ${report.only.join(', ')}` : ''}</dd>
    ${report.seed !== undefined && html`<dt>Seed</dt><dd>${report.seed}</dd>`}
    <dt>Contract</dt><dd>${report.contractVersion ? `version ${report.contractVersion}, ` : ''}<code>${report.spec === bundledSpecPath ? 'the bundled openapi.yaml' : report.spec}</code></dd>
    <dt>Started</dt><dd><time datetime="${report.startedAt}">${report.startedAt}</time></dd>
    <dt>Duration</dt><dd>${duration(report)}</dd>
    <dt>Run id</dt><dd><code>${report.runId}</code></dd>
    ${report.tool === 'docproc conformance' && html`<dt>Scenarios</dt><dd>${s.tests.passed} passed, ${s.tests.failed} failed, ${s.tests.skipped + s.tests.pending} skipped</dd>`}
    ${extraFacts.map(([name, value]) => html`<dt>${name}</dt><dd>${value}</dd>`)}
  </dl>
  ${
    rerun &&
    html`<h2 id="rerun">Run it again with the same seed</h2>
  <div class="cmd"><pre tabindex="0" id="rerun-command">${rerun}</pre>${copyButton('rerun-command', 'the command')}</div>
  <p class="muted">Add the limits the run had (<code>--max-files</code>, <code>--max-file-bytes</code>) and keep the keys in those variables: no key is ever written in a report.</p>`
  }
</header>`;
}
