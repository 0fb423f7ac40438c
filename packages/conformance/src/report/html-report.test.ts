import { describe, expect, it } from 'vitest';
import type { Check } from '../checks/index.js';
import { createTestRecord } from '../definitions/records.js';
import { escapeHtml, html } from './html-escape.js';
import { renderHtmlReport } from './html-report.js';
import { buildReport, type ConformanceReport } from './report.js';

// What a target answers ends up on the page: it must stay text, whatever it holds.
const HOSTILE = `</pre><script>alert(1)</script><img src=x onerror="fetch('//evil')">'\u0000`;

function failingReport(): ConformanceReport {
  const record = createTestRecord();
  record.declared = ['list.a'];
  record.counts['list.a'] = { passed: 0, failed: 1, warnings: 0 };
  record.failures.push({
    check: 'list.a',
    operation: 'listDocuments',
    request: 'GET http://t/api/v1/documents',
    received: HOSTILE,
    expected: 'a 200',
    at: 0,
    requestId: 'conformance-r-1',
    curl: `curl -sS 'http://t/api/v1/documents' -H "x-api-key: $DOCPROC_API_KEY"`,
    decidedBy: ['"limit" must be at most 100.'],
  });
  record.coverage.listDocuments = { '200': 4 };
  const check: Check = { id: 'list.a', profile: 'contract', area: 'list', description: 'lists', rules: [] };
  return buildReport(
    {
      runId: 'r',
      seed: 7,
      profile: 'contract',
      target: "http://t/'x",
      spec: 's.yaml',
      strict: false,
      only: null,
      startedAt: '2026-01-01T00:00:00Z',
      finishedAt: '2026-01-01T00:00:05Z',
    },
    [{ file: 'f', name: 'lists <b>', state: 'failed', errors: [], record }],
    [check],
    { listDocuments: ['200', '400', '500'] },
  );
}

describe('the HTML page of a report', () => {
  const page = renderHtmlReport(failingReport());

  it('escapes what the target answered: no tag of it survives, control characters become U+FFFD', () => {
    expect(page).not.toContain('<script>alert');
    expect(page).not.toContain('<img src=x');
    expect(page).toContain('&lt;/pre&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page).toContain('lists &lt;b&gt;');
    expect(page).not.toContain('\u0000');
    expect(escapeHtml('a\u0000b\u001bc')).toBe('a\uFFFDb\uFFFDc');
    expect(html`<a title="${'"><x'}">${html`<b>${'<i>'}</b>`}</a>`.text).toBe('<a title="&quot;&gt;&lt;x"><b>&lt;i&gt;</b></a>');
  });

  it('says the verdict first, then the command to rerun with the seed, quoting the target for the shell', () => {
    expect(page.indexOf('FAILED')).toBeLessThan(page.indexOf('id="failures"'));
    expect(page).toContain('--seed 7');
    expect(page).toContain(`--base-url &#39;http://t/&#39;\\&#39;&#39;x&#39;`);
    expect(page).toContain('--api-key &quot;$DOCPROC_API_KEY&quot;');
  });

  it('marks each status cell in words as well as colour: observed, never observed, not provokable', () => {
    expect(page).toMatch(/data-op="listDocuments" data-status="200" data-count="4"><span aria-hidden="true">✓<\/span> 4/);
    expect(page).toMatch(/data-status="400" data-count="0"><span aria-hidden="true">✗<\/span> never/);
    expect(page).toMatch(
      /data-status="500" data-count="0" title="not provokable"><span aria-hidden="true">–<\/span><span class="sr">not provokable/,
    );
  });

  it('shows partitions and states only when the report has them', () => {
    expect(page).not.toContain('id="partitions"');
    const report = failingReport();
    const operations = [
      {
        operation: 'listDocuments',
        partitions: { exercised: 3, total: 4, missing: ['limit=100'] },
        states: { reached: 2, total: 3, missing: ['failed'] },
      },
    ];
    const withCoverage = { ...report, coverage: { ...report.coverage, operations } } as unknown as ConformanceReport;
    const rendered = renderHtmlReport(withCoverage);
    expect(rendered).toContain('id="partitions"');
    expect(rendered).toContain('aria-label="3 of 4 partitions"');
    expect(rendered).toContain('limit=100');
    // The status matrix still reads only the operation rows.
    expect(rendered.match(/<tr><th scope="row"><code>/g)).toHaveLength(1);
  });

  it('asks for nothing over the network: no src or href leaves the page, and its policy forbids every fetch', () => {
    expect(page).toContain(`content="default-src 'none';`);
    expect(page.match(/(?:src|href)="(?!#)[^"]*"/g) ?? []).toEqual([]);
  });
});
