import { describe, expect, it } from 'vitest';
import { conformanceCommand } from './command.js';

function help(): string {
  let text = '';
  const command = conformanceCommand('docproc-conformance').configureOutput({ writeOut: (s) => (text += s) });
  command.outputHelp();
  return text.replace(/\s+/g, ' ');
}

describe('docproc conformance --help', () => {
  it('says when a target that stopped answering ends the run, and the default', () => {
    expect(help()).toMatch(
      /--max-unanswered <n> requests in a row .* with no complete answer within --request-timeout-ms .* exit 2, naming the last request answered .*\(default: 5/,
    );
  });

  it('says what becomes of an upload whose answer a forward proxy lost', () => {
    expect(help()).toContain('an upload whose answer the proxy loses (a reset or an empty reply) is sent straight to the target');
    expect(help()).toContain('with a warning on http.responds naming the hop that lost it');
  });
});
