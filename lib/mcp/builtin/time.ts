import 'server-only';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Temporal } from 'temporal-polyfill';
import * as z from '@/lib/zod';

class TimeError extends Error {}

const TIME_RE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

type Zone = { name: string; human: Intl.DateTimeFormat };
const zones = new Map<string, Zone>(); // keyed by canonical name, so the cache stays bounded

/** Validates an IANA zone (or a fixed "+05:30" offset) and returns its canonical name and formatter. */
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
    zone = {
      name,
      human: new Intl.DateTimeFormat('en-US', {
        timeZone: name,
        year: 'numeric',
        day: 'numeric',
        hourCycle: 'h23',
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

function placeOf(zone: Zone, t: number) {
  const { offset } = Temporal.Instant.fromEpochMilliseconds(t).toZonedDateTimeISO(zone.name);
  return { timeZone: zone.name, local: zone.human.format(t), utcOffset: offset };
}

/**
 * The instant a wall-clock time denotes in a zone, Temporal's "compatible" way: around DST an
 * ambiguous time takes the earlier instant and a skipped time is shifted forward by the gap.
 */
function wallToInstant(zone: Zone, wall: Temporal.PlainDateTime): { t: number; note?: string } {
  const at = wall.toZonedDateTime(zone.name);
  const t = at.epochMilliseconds;
  if (!at.toPlainDateTime().equals(wall))
    return {
      t,
      note: 'This wall-clock time does not exist (skipped by a DST change); it was shifted forward.',
    };
  const later = wall.toZonedDateTime(zone.name, { disambiguation: 'later' }).epochMilliseconds;
  if (later !== t)
    return { t, note: 'This wall-clock time occurs twice (DST change); the earlier instant was used.' };
  return { t };
}

function parseTime(input: string, fromZone: string): { t: number; from: Zone; note?: string } {
  const m = TIME_RE.exec(input.trim());
  if (!m)
    throw new TimeError(
      `Unrecognized time "${input}" (use ISO 8601 such as "2024-03-05T14:30:00Z" or "2024-03-05 14:30")`,
    );
  const [year, month, day, hour = 0, minute = 0, second = 0] = m
    .slice(1, 7)
    .map((v) => (v === undefined ? undefined : Number(v)));
  let wall: Temporal.PlainDateTime;
  try {
    if (year! < 1) throw new RangeError('year 0');
    const millisecond = Number(`${m[7] ?? ''}000`.slice(0, 3));
    wall = Temporal.PlainDateTime.from(
      { year: year!, month: month!, day: day!, hour, minute, second, millisecond },
      { overflow: 'reject' },
    );
  } catch {
    throw new TimeError(`Invalid date or time "${input}"`);
  }
  const offset = m[8]?.toUpperCase();
  if (offset === undefined) {
    const from = zoneOf(fromZone);
    return { ...wallToInstant(from, wall), from };
  }
  const [hh, mm] =
    offset === 'Z' ? ['00', '00'] : [offset.slice(1, 3), offset.replace(':', '').slice(3) || '00'];
  if (Number(hh) > 23 || Number(mm) > 59) throw new TimeError(`Invalid UTC offset "${offset}"`);
  const from = zoneOf(hh === '00' && mm === '00' ? 'UTC' : `${offset[0]}${hh}:${mm}`);
  return { ...wallToInstant(from, wall), from }; // a fixed offset has no gaps or overlaps
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
