import { readFile } from 'node:fs/promises';

/** A fenced code block of a README that carries a title (```ts title="src/mocks.ts"): where it goes, or where it runs. */
export interface TitledBlock {
  language: string;
  title: string;
  code: string;
}

/**
 * The titled code blocks of a Markdown file, in order. A README's untitled blocks are prose; its titled ones
 * are what a test writes and runs, so the two cannot drift apart.
 * @example const blocks = await titledBlocks('packages/msw/README.md'); blocks.filter((b) => b.title === 'in my-app');
 */
export async function titledBlocks(markdownPath: string): Promise<TitledBlock[]> {
  const markdown = await readFile(markdownPath, 'utf8');
  return [...markdown.matchAll(/^```(\w+) title="([^"]+)"\n([\s\S]*?)^```$/gm)].map(([, language, title, code]) => ({
    language: language!,
    title: title!,
    code: code!,
  }));
}
