import 'server-only';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

class TimeError extends Error {}

const DAY = 86_400_000;
const TIME_RE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

type Zone = { name: string; parts: Intl.DateTimeFormat; human: Intl.DateTimeFormat };
const zones = new Map<string, Zone>(); // keyed by canonical name, so the cache stays bounded

/** Validates an IANA zone (or a fixed "+05:30" offset) and returns its canonical name and formatters. */
function zoneOf(input: string): Zone {
  let name: string;
  try {
    if (!input.trim()) throw new RangeError('empty');
    name = new Intl.DateTimeFormat('en-US', { timeZone: input.trim() }).resolvedOptions().timeZone;
  } catch {
    throw new TimeError(
      `Unknown time zone "${input}" (use an IANA name such as "Europe/Paris" or "America/New_York")`,
    );
  }
  let zone = zones.get(name);
  if (!zone) {
    const common = { timeZone: name, year: 'numeric', day: 'numeric', hourCycle: 'h23' } as const;
    zone = {
      name,
      parts: new Intl.DateTimeFormat('en-US', {
        ...common,
        month: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      }),
      human: new Intl.DateTimeFormat('en-US', {
        ...common,
        weekday: 'short',
        month: 'short',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
        timeZoneName: 'short',
      }),
    };
    zones.set(name, zone);
  }
  return zone;
}

/** Milliseconds since the epoch for a UTC wall clock; unlike Date.UTC, years 0–99 are taken literally. */
function utcMs(y: number, mo: number, d: number, h = 0, mi = 0, s = 0, ms = 0): number {
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  date.setUTCHours(h, mi, s, ms);
  return date.getTime();
}

/** The zone's offset from UTC (ms) at instant t: format t in the zone and diff against t. */
function offsetAt(zone: Zone, t: number): number {
  const whole = t - (((t % 1000) + 1000) % 1000);
  const p = Object.fromEntries(zone.parts.formatToParts(whole).map((x) => [x.type, Number(x.value)]));
  return utcMs(p.year ?? 0, p.month ?? 1, p.day ?? 1, p.hour, p.minute, p.second) - whole;
}

function formatOffset(ms: number): string {
  const total = Math.abs(ms) / 1000;
  const [h, m, s] = [Math.floor(total / 3600), Math.floor((total % 3600) / 60), total % 60];
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${ms < 0 ? '-' : '+'}${pad(h)}:${pad(m)}${s ? `:${pad(s)}` : ''}`;
}

function placeOf(zone: Zone, t: number) {
  return { timeZone: zone.name, local: zone.human.format(t), utcOffset: formatOffset(offsetAt(zone, t)) };
}

/**
 * The instant a wall-clock time denotes in a zone. Offsets from a day either side are tried; around DST
 * an ambiguous time takes the earlier instant and a skipped time is shifted forward (like Temporal's "compatible").
 */
function wallToInstant(zone: Zone, wall: number): { t: number; note?: string } {
  const offsets = new Set([offsetAt(zone, wall - DAY), offsetAt(zone, wall), offsetAt(zone, wall + DAY)]);
  const valid = [...offsets]
    .map((o) => wall - o)
    .filter((t) => offsetAt(zone, t) === wall - t)
    .sort((a, b) => a - b);
  if (valid.length > 1)
    return {
      t: valid[0]!,
      note: 'This wall-clock time occurs twice (DST change); the earlier instant was used.',
    };
  if (valid.length === 1) return { t: valid[0]! };
  return {
    t: wall - offsetAt(zone, wall - DAY),
    note: 'This wall-clock time does not exist (skipped by a DST change); it was shifted forward.',
  };
}

function parseTime(input: string, fromZone: string): { t: number; from: Zone; note?: string } {
  const m = TIME_RE.exec(input.trim());
  if (!m)
    throw new TimeError(
      `Unrecognized time "${input}" (use ISO 8601 such as "2024-03-05T14:30:00Z" or "2024-03-05 14:30")`,
    );
  const [y, mo, d, h = 0, mi = 0, s = 0] = m
    .slice(1, 7)
    .map((v) => (v === undefined ? undefined : Number(v)));
  const ms = Number(`${m[7] ?? ''}000`.slice(0, 3));
  const wall = utcMs(y!, mo!, d!, h, mi, s, ms);
  const check = new Date(wall);
  if (
    y! < 1 ||
    check.getUTCMonth() + 1 !== mo ||
    check.getUTCDate() !== d ||
    h! > 23 ||
    mi! > 59 ||
    s! > 59
  ) {
    throw new TimeError(`Invalid date or time "${input}"`);
  }
  const offset = m[8]?.toUpperCase();
  if (offset === undefined) {
    const from = zoneOf(fromZone);
    return { ...wallToInstant(from, wall), from };
  }
  if (offset === 'Z') return { t: wall, from: zoneOf('UTC') };
  const digits = offset.replace(':', '');
  const minutes = Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5) || '0');
  if (minutes >= 24 * 60 || Number(digits.slice(3, 5) || '0') > 59)
    throw new TimeError(`Invalid UTC offset "${offset}"`);
  const signed = offset.startsWith('-') ? -minutes : minutes;
  return { t: wall - signed * 60_000, from: zoneOf(signed === 0 ? 'UTC' : formatOffset(signed * 60_000)) };
}

function failure(error: unknown) {
  const text =
    error instanceof TimeError
      ? error.message
      : `Time tool failed: ${error instanceof Error ? error.message : String(error)}`;
  return { isError: true, content: [{ type: 'text' as const, text }] };
}

const place = z.object({ timeZone: z.string(), local: z.string(), utcOffset: z.string() });

/** Built-in MCP server for the current time and time-zone conversion. `now` is injectable for tests. */
export function createTimeServer(now: () => Date = () => new Date()): McpServer {
  const server = new McpServer({ name: 'time', version: '1.0.0' });
  const annotations = { readOnlyHint: true, openWorldHint: false };

  server.registerTool(
    'now',
    {
      title: 'Current time',
      description: 'Get the current date and time, in UTC and in an IANA time zone (default UTC).',
      inputSchema: {
        timeZone: z.string().optional().describe('IANA time zone such as "Europe/Berlin"; defaults to "UTC"'),
      },
      outputSchema: { iso: z.string(), timeZone: z.string(), local: z.string(), utcOffset: z.string() },
      annotations,
    },
    ({ timeZone }) => {
      try {
        const t = now().getTime();
        const iso = new Date(t).toISOString();
        const here = placeOf(zoneOf(timeZone ?? 'UTC'), t);
        const text = `Current time in ${here.timeZone}: ${here.local} (UTC${here.utcOffset})\nISO 8601 (UTC): ${iso}`;
        return { content: [{ type: 'text', text }], structuredContent: { iso, ...here } };
      } catch (error) {
        return failure(error);
      }
    },
  );

  server.registerTool(
    'convert',
    {
      title: 'Convert time zone',
      description:
        'Convert a date-time from one IANA time zone to another. "time" is ISO 8601 ("2024-03-05T14:30", "2024-03-05 14:30", ' +
        '"2024-03-05T14:30:00Z"); "from" is the zone the wall-clock time is in and is ignored when the time carries Z or an offset.',
      inputSchema: {
        time: z.string().describe('ISO 8601 date-time or "YYYY-MM-DD HH:mm"'),
        from: z.string().describe('IANA zone the time is expressed in, e.g. "America/New_York"'),
        to: z.string().describe('IANA zone to convert to, e.g. "Asia/Tokyo"'),
      },
      outputSchema: { from: place, to: place, iso: z.string() },
      annotations,
    },
    ({ time, from, to }) => {
      try {
        const target = zoneOf(to);
        const parsed = parseTime(time, from);
        const [a, b] = [placeOf(parsed.from, parsed.t), placeOf(target, parsed.t)];
        const iso = new Date(parsed.t).toISOString();
        const text = [
          `${a.local} (${a.timeZone}) = ${b.local} (${b.timeZone})`,
          `ISO 8601 (UTC): ${iso}`,
          parsed.note,
        ]
          .filter(Boolean)
          .join('\n');
        return { content: [{ type: 'text', text }], structuredContent: { from: a, to: b, iso } };
      } catch (error) {
        return failure(error);
      }
    },
  );
  return server;
}
