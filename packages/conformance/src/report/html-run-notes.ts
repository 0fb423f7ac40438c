import { anchorId, capText, html, type SafeHtml } from './html-escape.js';
import { type ConformanceReport, leftOutByOnly } from './report.js';

// The check whose warnings name a proxy or gateway that answered instead of the service.
const INTERMEDIARY_CHECK = 'response.answered-by-service';
const SHOWN = 200;

function more(total: number): SafeHtml | false {
  return total > SHOWN && html`<p class="muted">… and ${total - SHOWN} more: all of them in the JSON report.</p>`;
}

function resends(report: ConformanceReport): SafeHtml {
  const r = report.resends;
  if (!r?.total)
    return html`<h3 id="resends">Resends and waits</h3><p>No request was resent: no 429, 503 or gateway 502/504 was answered.</p>`;
  const byStatus = Object.entries(r.byStatus)
    .map(([status, n]) => `${status}: ${n}`)
    .join(', ');
  return html`<h3 id="resends">Resends and waits</h3>
  <p>${r.total} request${r.total === 1 ? '' : 's'} resent after a transient answer (${byStatus}), waiting ${(r.waitedMs / 1000).toFixed(1)} s in all. A transient answer is never judged.</p>
  <details><summary>Every resend</summary><div class="body matrix-wrap" tabindex="0" role="region" aria-label="Every resend"><table><thead><tr><th scope="col">Request</th><th scope="col">Status</th><th scope="col">Retry-After</th><th scope="col">Waited</th><th scope="col">Request id</th><th scope="col">Scenario</th></tr></thead><tbody>
  ${r.requests
    .slice(0, SHOWN)
    .map(
      (q) =>
        html`<tr><td><code>${q.request}</code></td><td>${q.status}</td><td>${q.retryAfter ?? 'none (backoff)'}</td><td>${(q.waitMs / 1000).toFixed(1)} s</td><td><code>${q.requestId ?? ''}</code></td><td>${q.test}</td></tr>`,
    )}
  </tbody></table>${more(r.requests.length)}</div></details>`;
}

function warnings(report: ConformanceReport): SafeHtml {
  const warned = report.checks.filter((c) => c.warnings.length > 0);
  if (warned.length === 0) return html`<h3 id="warnings">Warnings</h3><p>None.</p>`;
  const intermediaries = warned.find((c) => c.id === INTERMEDIARY_CHECK);
  const seen = intermediaries?.warnings.reduce((sum, w) => sum + w.count, 0) ?? 0;
  return html`<h3 id="warnings">Warnings</h3>
  ${intermediaries && html`<p><span aria-hidden="true">⚠</span> <strong>An intermediary answered instead of the service</strong> ${seen} time${seen === 1 ? '' : 's'}: what those requests were to show was not exercised.</p>`}
  ${warned.map(
    (c) =>
      html`<details${c.id === INTERMEDIARY_CHECK ? ' open' : ''} id="${anchorId('warn', c.id)}" data-check="${c.id}"><summary><span aria-hidden="true">!</span> <code>${c.id}</code>: ${c.warnings.length} warning${c.warnings.length === 1 ? '' : 's'}</summary><div class="body"><ul class="reasons">
      ${c.warnings.slice(0, SHOWN).map((w) => html`<li>${capText(w.message, 2_000)} <span class="muted">(${w.operation}, seen ${w.count}×${w.requestId ? `, request id ${w.requestId}` : ''})</span></li>`)}
      </ul>${more(c.warnings.length)}</div></details>`,
  )}`;
}

function notExercised(report: ConformanceReport): SafeHtml {
  const skipped = report.checks.filter((c) => c.outcome === 'not-exercised');
  const unselected = skipped.filter((c) => report.only && leftOutByOnly(c, report.only));
  const rest = skipped.filter((c) => !unselected.includes(c));
  const profile = report.checks.filter((c) => c.outcome === 'not-in-profile');
  return html`<h3 id="not-exercised">Not exercised (not passed)</h3>
  ${rest.length === 0 ? html`<p>Every check in the profile was exercised${unselected.length ? ' but those --only left out' : ''}.</p>` : ''}
  ${
    rest.length > 0 &&
    html`<details${rest.length <= 12 ? ' open' : ''}><summary>${rest.length} check${rest.length === 1 ? '' : 's'} not exercised, with why</summary><div class="body matrix-wrap" tabindex="0" role="region" aria-label="Checks not exercised"><table id="not-exercised-table"><thead><tr><th scope="col">Check</th><th scope="col">Why</th></tr></thead><tbody>
  ${rest.map(
    (c) =>
      html`<tr data-check="${c.id}"><th scope="row"><span aria-hidden="true">○</span> <code>${c.id}</code></th><td><ul class="reasons">${c.notExercised.slice(0, 5).map((r) => html`<li>${capText(r, 1_000)}</li>`)}</ul>${c.notExercised.length > 5 && html`<span class="muted">and ${c.notExercised.length - 5} more reasons</span>`}</td></tr>`,
  )}</tbody></table></div></details>`
  }
  ${unselected.length > 0 && html`<p><span aria-hidden="true">○</span> ${unselected.length} checks in areas --only left out (${[...new Set(unselected.map((c) => c.area))].join(', ')}).</p>`}
  ${profile.length > 0 && html`<p><span aria-hidden="true">–</span> ${profile.length} checks run only in the full profile (<code>--profile full</code>).</p>`}`;
}

/** What else the run met: why it stopped, resends and waits, warnings (intermediaries first), and what it could not exercise. */
export function runNotesSection(report: ConformanceReport): SafeHtml {
  return html`<section aria-labelledby="run-notes"><h2 id="run-notes">What the run met</h2>
  ${report.stopped && html`<p class="verdict v-stopped"><span aria-hidden="true">⚠</span> <strong>Stopped early</strong> (${report.stopped.reason}): ${report.stopped.message}</p>`}
  ${resends(report)}${warnings(report)}${notExercised(report)}</section>`;
}
