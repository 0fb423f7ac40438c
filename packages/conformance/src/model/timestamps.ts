const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?([Zz]|[+-]\d{2}:\d{2})$/;

/**
 * The instant an RFC 3339 date-time names, in nanoseconds since the epoch, or undefined when it is not
 * one. Exact to the nanosecond, so two timestamps a server wrote with microseconds compare as it meant
 * them (Date.parse drops everything below the millisecond).
 * @example instantOf('2024-05-02T11:14:03.120123+02:00') === instantOf('2024-05-02T09:14:03.120123Z') // true
 */
export function instantOf(text: unknown): bigint | undefined {
  if (typeof text !== 'string') return undefined;
  const m = RFC3339.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, fraction, zone] = m as unknown as string[] as [
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string | undefined,
    string,
  ];
  const ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  // Date.UTC rolls over (month 13 is next January): the fields must name a real day and time.
  const day = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
  if (day.getUTCMonth() !== Number(mo) - 1 || day.getUTCDate() !== Number(d) || Number(h) > 23 || Number(mi) > 59 || Number(s) > 60)
    return undefined;
  const offsetMinutes = /^[Zz]$/.test(zone) ? 0 : (zone[0] === '-' ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
  return (BigInt(ms) - BigInt(offsetMinutes) * 60_000n) * 1_000_000n + BigInt((fraction ?? '').slice(0, 9).padEnd(9, '0'));
}

/**
 * How finely a server's clock writes timestamps, learnt from the ones it wrote: the coarsest unit (a
 * second, 100 ms, ..., a nanosecond) that every sub-second part seen so far is a whole number of. A
 * server that writes whole seconds gives two changes within one second the same `updated_at`; the suite
 * waits longer than a tick before causing a change it expects to move the time.
 * @example const grain = new TimestampGrain(); grain.see('2024-05-02T09:14:03.120Z'); grain.ms // 10
 */
export class TimestampGrain {
  private ns = 1_000_000_000n;

  see(text: unknown): void {
    const at = instantOf(text);
    if (at === undefined) return;
    const fraction = ((at % 1_000_000_000n) + 1_000_000_000n) % 1_000_000_000n;
    while (this.ns > 1n && fraction % this.ns !== 0n) this.ns /= 10n;
  }

  /** One tick of the server's clock, in milliseconds, as far as its timestamps tell. */
  get ms(): number {
    return Number(this.ns) / 1e6;
  }
}
