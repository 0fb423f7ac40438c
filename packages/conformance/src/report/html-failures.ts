import { CHECK_AREAS } from '../definitions/areas.js';
import { anchorId, capText, html, type SafeHtml, withCode } from './html-escape.js';
import { copyButton } from './html-verdict.js';
import type { CheckReport, ConformanceReport } from './report.js';

type Failure = CheckReport['failures'][number];

// A model or oracle failure's note holds the shortest sequence found and its curl script replays it.
const SEQUENCE_AREAS = new Set(['model', 'oracle']);

function failureBlock(check: CheckReport, failure: Failure, index: number): SafeHtml {
  const id = anchorId('f', `${check.id}-${index}`);
  const sequence = SEQUENCE_AREAS.has(check.area);
  return html`<article class="failure" id="${id}" data-check="${check.id}">
  <dl>
    <dt>Operation</dt><dd><code>${failure.operation}</code></dd>
    <dt>Request</dt><dd><code>${failure.request}</code></dd>
    ${failure.requestId && html`<dt>Request id</dt><dd><code>${failure.requestId}</code></dd>`}
    ${failure.noResponse && html`<dt>No response</dt><dd>${failure.noResponse}</dd>`}
    <dt>Scenario</dt><dd>${failure.test}</dd>
  </dl>
  <div class="side">
    <div><h4>✗ Received</h4><pre tabindex="0">${capText(failure.received)}</pre></div>
    <div><h4>✓ Expected</h4><pre tabindex="0">${capText(failure.expected)}</pre></div>
  </div>
  ${
    failure.decidedBy?.length &&
    html`<div class="decided"><h4>Decided by the contract</h4><ul>${failure.decidedBy.map((line) => html`<li>${line}</li>`)}</ul></div>`
  }
  ${failure.note && html`<h4>${sequence ? 'The shortest sequence found' : 'Note'}</h4><pre tabindex="0">${capText(failure.note)}</pre>`}
  ${
    failure.curl &&
    html`<h4>${sequence ? 'Replay it (curl script)' : 'Reproduce it (curl)'}</h4>
  <div class="cmd"><pre tabindex="0" id="${id}-curl" class="curl">${failure.curl}</pre>${copyButton(`${id}-curl`, `the curl command of ${check.id}`)}</div>`
  }
</article>`;
}

function checkBlock(check: CheckReport): SafeHtml {
  return html`<details open id="${anchorId('check', check.id)}" data-check="${check.id}">
  <summary><span aria-hidden="true">✗</span> <code>${check.id}</code>: ${withCode(check.description)} <span class="muted">(${check.failures.length} failure${check.failures.length === 1 ? '' : 's'})</span></summary>
  <div class="body">${check.failures.map((f, i) => failureBlock(check, f, i))}</div>
</details>`;
}

/** Every failure, grouped by area (in the catalogue's order) and check; then the scenarios that crashed with no check. */
export function failuresSection(report: ConformanceReport): SafeHtml {
  const failed = report.checks.filter((c) => c.failures.length > 0);
  if (failed.length === 0 && report.unattributed.length === 0)
    return html`<section aria-labelledby="failures"><h2 id="failures">Failures</h2><p><span aria-hidden="true">✓</span> None: no check failed.</p></section>`;
  const areas = Object.entries(CHECK_AREAS)
    .map(([area, title]) => ({ area, title, checks: failed.filter((c) => c.area === area) }))
    .filter((a) => a.checks.length > 0);
  return html`<section aria-labelledby="failures"><h2 id="failures">Failures</h2>
  <ul class="glance" aria-label="Failed checks by area">${areas.map(
    ({ area, checks }) =>
      html`<li><a href="#${anchorId('area', area)}">${area}</a>: ${checks.map((c, i) => html`${i ? ', ' : ''}<a href="#${anchorId('check', c.id)}"><code>${c.id}</code></a> (${c.failures.length})`)}</li>`,
  )}${report.unattributed.length > 0 && html`<li><a href="#crashed">crashed scenarios</a> (${report.unattributed.length})</li>`}</ul>
  ${areas.map(
    ({ area, title, checks }) =>
      html`<div class="area" id="${anchorId('area', area)}"><h3>${area}: ${withCode(title)} <span class="muted">(${checks.length} check${checks.length === 1 ? '' : 's'} failed)</span></h3>${checks.map(checkBlock)}</div>`,
  )}
  ${
    report.unattributed.length > 0 &&
    html`<div class="area" id="crashed"><h3>Crashed scenarios (no check attributed)</h3>
    ${report.unattributed.map(
      (u) =>
        html`<details open data-crash="${u.test}"><summary><span aria-hidden="true">✗</span> ${u.test}</summary><div class="body"><pre tabindex="0">${capText(u.error)}</pre>${u.stack && html`<pre tabindex="0">${capText(u.stack)}</pre>`}</div></details>`,
    )}</div>`
  }
</section>`;
}
