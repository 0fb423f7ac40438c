import { type OperationCoverage, operationCoverage, type StatusEntry, statusRows } from './coverage-entries.js';
import { html, type SafeHtml } from './html-escape.js';
import type { MissingReason } from './missing-reasons.js';
import type { ConformanceReport } from './report.js';

const order = (status: string) =>
  /^\d{3}$/.test(status) ? Number(status) : /^\dXX$/i.test(status) ? Number(status[0]) * 100 + 99.5 : 1000;
const covers = (documented: string, status: string) =>
  documented === status || documented === 'default' || (/^\dXX$/i.test(documented) && documented[0] === status[0]);

function cell(op: string, status: string, entry: StatusEntry, only: boolean): SafeHtml {
  const n = entry.observed[status] ?? 0;
  const attrs = (cls: string) => html`class="${cls}" data-op="${op}" data-status="${status}" data-count="${n}"`;
  if (n > 0) {
    const documented = entry.documented.some((d) => covers(d, status));
    return documented
      ? html`<td ${attrs('c-seen')}><span aria-hidden="true">✓</span> ${n}</td>`
      : html`<td ${attrs('c-undoc')} title="undocumented"><span aria-hidden="true">⚠</span> ${n}<span class="sr"> undocumented</span></td>`;
  }
  if (entry.neverObserved.includes(status)) return html`<td ${attrs('c-never')}><span aria-hidden="true">✗</span> never</td>`;
  if (entry.documented.includes(status)) {
    const why = only && Object.keys(entry.observed).length === 0 ? 'not run' : 'not provokable';
    return html`<td ${attrs('c-unprov')} title="${why}"><span aria-hidden="true">–</span><span class="sr">${why}</span></td>`;
  }
  return html`<td class="c-na"><span class="sr">not documented</span></td>`;
}

function statusMatrix(report: ConformanceReport): SafeHtml {
  const rows = statusRows(report);
  const columns = [...new Set(rows.flatMap(([, e]) => [...e.documented, ...Object.keys(e.observed)]))].sort((a, b) => order(a) - order(b));
  const gaps = rows.reduce((sum, [, e]) => sum + e.neverObserved.length, 0);
  return html`<h3 id="status-matrix">Operation × documented status</h3>
  <p>${gaps === 0 ? 'Every documented status a client can provoke was observed.' : `${gaps} documented status${gaps === 1 ? '' : 'es'} a client can provoke never observed.`} Counts are responses the run judged.</p>
  <ul class="legend" aria-label="Legend">
    <li><span class="c-seen">✓ n</span> observed n times</li>
    <li><span class="c-never">✗ never</span> documented, never observed</li>
    <li><span class="c-unprov">–</span> a 5xx or 429 no client can provoke on purpose (or an operation --only left out)</li>
    <li><span class="c-undoc">⚠ n</span> observed n times, not documented</li>
    <li>blank: not documented</li>
  </ul>
  <div class="matrix-wrap" tabindex="0" role="region" aria-label="Operation by status matrix">
  <table class="matrix" id="matrix"><caption class="sr">Responses observed per operation and status</caption>
    <thead><tr><th scope="col">Operation</th>${columns.map((c) => html`<th scope="col">${c}</th>`)}</tr></thead>
    <tbody>${rows.map(([op, entry]) => html`<tr><th scope="row"><code>${op}</code></th>${columns.map((c) => cell(op, c, entry, report.only !== null))}</tr>`)}</tbody>
  </table></div>`;
}

function bar(done: number, total: number, what: string): SafeHtml {
  const percent = total > 0 ? Math.round((100 * done) / total) : 100;
  return html`<span class="bar" role="img" aria-label="${done} of ${total} ${what}"><span style="width:${percent}%"></span></span> ${done} / ${total}`;
}

function operationTable(operations: OperationCoverage[]): SafeHtml {
  const missing = (list: string[], why: Record<string, MissingReason> = {}) =>
    list.length
      ? html`<ul class="reasons">${list.map((m) => {
          const reason = why[m];
          return html`<li data-cause="${reason?.cause ?? ''}"><span aria-hidden="true">✗</span> ${m}${reason && html` <small>(${reason.cause}: ${reason.detail})</small>`}</li>`;
        })}</ul>`
      : html`<span aria-hidden="true">✓</span> none`;
  return html`<h3 id="partitions">Partitions exercised and states reached</h3>
  <div class="matrix-wrap" tabindex="0" role="region" aria-label="Partitions and states per operation">
  <table id="operation-coverage"><thead><tr><th scope="col">Operation</th><th scope="col">Partitions exercised</th><th scope="col">Missing partitions</th><th scope="col">States reached</th><th scope="col">Missing states</th></tr></thead>
  <tbody>${operations.map(
    (o) =>
      html`<tr data-op="${o.operation}"><th scope="row"><code>${o.operation}</code></th><td>${bar(o.partitions.exercised, o.partitions.total, 'partitions')}</td><td>${missing(o.partitions.missing, o.partitions.why)}</td><td>${bar(o.states.reached, o.states.total, 'states')}</td><td>${missing(o.states.missing, o.states.why)}</td></tr>`,
  )}</tbody></table></div>`;
}

/** Coverage as pictures: the status matrix, and the partitions and states when the report has them. */
export function coverageSection(report: ConformanceReport): SafeHtml {
  const operations = operationCoverage(report);
  return html`<section aria-labelledby="coverage"><h2 id="coverage">Coverage</h2>${statusMatrix(report)}${operations && operationTable(operations)}</section>`;
}
