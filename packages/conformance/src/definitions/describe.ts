import type { Exchange } from './exchange.js';

/** How much of a body a Received text keeps (the console shows less; the JSON report all of this). */
export const RECORDED_BODY_LIMIT = 65_536;

/** A short, single-line JSON rendering of any value for Received/Expected texts. */
export function show(value: unknown, max = 400): string {
  let text: string;
  try {
    text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text;
}

/** `204 application/json {"a":1}`: a one-line picture of a response for Received texts. */
export function describeResponse(exchange: Exchange): string {
  const body =
    exchange.json !== undefined
      ? show(exchange.json, RECORDED_BODY_LIMIT)
      : exchange.text
        ? show(exchange.text, RECORDED_BODY_LIMIT)
        : '(empty body)';
  return `${exchange.status} ${exchange.mediaType || '(no content-type)'} ${body}`;
}
