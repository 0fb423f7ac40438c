// The reason phrases of the error statuses (RFC 9110 section 15, RFC 6585 for 428, 429, 431 and 511, RFC 7725
// for 451), with the names earlier HTTP RFCs and common stacks still write (Node's and Express's `Payload Too
// Large`, RFC 2616's `Request Time-out`), since the contract asks for "the HTTP reason phrase" and every one
// of these is one.

const PHRASES: Readonly<Record<number, readonly string[]>> = {
  400: ['Bad Request'],
  401: ['Unauthorized'],
  402: ['Payment Required'],
  403: ['Forbidden'],
  404: ['Not Found'],
  405: ['Method Not Allowed'],
  406: ['Not Acceptable'],
  407: ['Proxy Authentication Required'],
  408: ['Request Timeout'],
  409: ['Conflict'],
  410: ['Gone'],
  411: ['Length Required'],
  412: ['Precondition Failed'],
  413: ['Content Too Large', 'Payload Too Large', 'Request Entity Too Large'],
  414: ['URI Too Long', 'Request-URI Too Long', 'Request-URI Too Large'],
  415: ['Unsupported Media Type'],
  416: ['Range Not Satisfiable', 'Requested Range Not Satisfiable'],
  417: ['Expectation Failed'],
  421: ['Misdirected Request'],
  422: ['Unprocessable Content', 'Unprocessable Entity'],
  426: ['Upgrade Required'],
  428: ['Precondition Required'],
  429: ['Too Many Requests'],
  431: ['Request Header Fields Too Large'],
  451: ['Unavailable For Legal Reasons'],
  500: ['Internal Server Error'],
  501: ['Not Implemented'],
  502: ['Bad Gateway'],
  503: ['Service Unavailable'],
  504: ['Gateway Timeout'],
  505: ['HTTP Version Not Supported'],
  511: ['Network Authentication Required'],
};

// Case, runs of spaces and hyphens are spelling, not the phrase: `Request Time-out` is `Request Timeout`; an
// error code (`not_found`) is not a phrase.
const folded = (phrase: string) => phrase.toLowerCase().replace(/-/g, '').replace(/\s+/g, ' ').trim();

/** The reason phrases `status` goes by, or none when no RFC registers one. */
export function reasonPhrases(status: number): readonly string[] {
  return PHRASES[status] ?? [];
}

/** Whether `title` is a reason phrase of `status` (in any case, with hyphens and runs of spaces aside); true for a status with none registered. */
export function isReasonPhrase(status: number, title: string): boolean {
  const phrases = reasonPhrases(status);
  return phrases.length === 0 ? title.trim() !== '' : phrases.some((phrase) => folded(phrase) === folded(title));
}
