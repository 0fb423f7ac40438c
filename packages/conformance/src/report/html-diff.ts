import { anchorId, html, type SafeHtml, withCode } from './html-escape.js';
import { htmlPage } from './html-report.js';
import type { CheckChange, ReportDiff } from './report-diff.js';

function checkTable(id: string, title: string, icon: string, changes: CheckChange[], empty: string): SafeHtml {
  return html`<section aria-labelledby="${id}"><h2 id="${id}">${title} (${changes.length})</h2>
  ${
    changes.length === 0
      ? html`<p>${empty}</p>`
      : html`<div class="matrix-wrap" tabindex="0" role="region" aria-label="${title}"><table id="${id}-table"><thead><tr><th scope="col">Check</th><th scope="col">Before</th><th scope="col">After</th><th scope="col">What it proves</th></tr></thead><tbody>
    ${changes.map(
      (c) =>
        html`<tr id="${anchorId(id, c.id)}" data-check="${c.id}"><th scope="row"><span aria-hidden="true">${icon}</span> <code>${c.id}</code></th><td class="nowrap">${c.before}</td><td class="nowrap">${c.after}${c.after === 'failed' ? ` (${c.failures} failure${c.failures === 1 ? '' : 's'})` : ''}</td><td>${withCode(c.description)}</td></tr>`,
    )}</tbody></table></div>`
  }</section>`;
}

/** The comparison of two runs as a self-contained page. */
export function renderHtmlDiff(diff: ReportDiff): string {
  const run = (label: string, r: ReportDiff['before']) =>
    html`<dt>${label}</dt><dd><code>${r.runId}</code>: <strong>${r.result === 'failed' ? '✗ failed' : '✓ passed'}</strong>, ${r.profile} profile, <code>${r.target}</code>, <time datetime="${r.startedAt}">${r.startedAt}</time></dd>`;
  const worse = diff.newlyFailing.length > 0;
  const body = html`<header><h1>docproc conformance diff</h1>
  <div class="verdict ${worse ? 'v-failed' : 'v-passed'}" role="status" id="verdict"><span class="word"><span aria-hidden="true">${worse ? '✗' : '✓'}</span> ${diff.newlyFailing.length} newly failing, ${diff.fixed.length} fixed</span><span>${diff.stillFailing.length} still failing, ${diff.statusCells.length} status cell${diff.statusCells.length === 1 ? '' : 's'} changed</span></div>
  <dl class="facts">${run('Before', diff.before)}${run('After', diff.after)}</dl></header>
  ${checkTable('newly-failing', 'Newly failing', '✗', diff.newlyFailing, 'No check fails that did not fail before.')}
  ${checkTable('fixed', 'Fixed', '✓', diff.fixed, 'No check that failed before passes now.')}
  ${diff.stillFailing.length > 0 && html`<section aria-labelledby="still"><h2 id="still">Still failing (${diff.stillFailing.length})</h2><p>${diff.stillFailing.map((id, i) => html`${i ? ', ' : ''}<code>${id}</code>`)}</p></section>`}
  ${diff.otherChanges.length > 0 && checkTable('other-changes', 'Other changes of outcome', '○', diff.otherChanges, '')}
  <section aria-labelledby="cells"><h2 id="cells">Status cells (${diff.statusCells.length})</h2>
  ${
    diff.statusCells.length === 0
      ? html`<p>The same operation × status cells were observed in both runs.</p>`
      : html`<div class="matrix-wrap" tabindex="0" role="region" aria-label="Status cells changed"><table id="cells-table"><thead><tr><th scope="col">Operation</th><th scope="col">Status</th><th scope="col">Before</th><th scope="col">After</th></tr></thead><tbody>
    ${diff.statusCells.map(
      (c) =>
        html`<tr data-op="${c.operation}" data-status="${c.status}"><th scope="row"><code>${c.operation}</code></th><td>${c.status}</td><td>${c.before}</td><td class="${c.after > 0 ? 'c-seen' : 'c-never'}"><span aria-hidden="true">${c.after > 0 ? '+' : '−'}</span> ${c.after > 0 ? `now observed (${c.after})` : 'no longer observed'}</td></tr>`,
    )}</tbody></table></div>`
  }</section>
  ${
    diff.coverage &&
    html`<section aria-labelledby="coverage-changes"><h2 id="coverage-changes">Partitions and states (${diff.coverage.length})</h2>
    ${diff.coverage.length === 0 ? html`<p>No change.</p>` : html`<ul>${diff.coverage.map((c) => html`<li><code>${c.operation}</code> ${c.kind}: ${c.before} → ${c.after}${c.newlyMissing.length ? `; newly missing: ${c.newlyMissing.join(', ')}` : ''}${c.newlyCovered.length ? `; newly covered: ${c.newlyCovered.join(', ')}` : ''}</li>`)}</ul>`}</section>`
  }`;
  return htmlPage(`diff: ${diff.newlyFailing.length} newly failing, ${diff.fixed.length} fixed`, body, [
    ['newly-failing', 'Newly failing'],
    ['fixed', 'Fixed'],
    ['cells', 'Status cells'],
  ]);
}
