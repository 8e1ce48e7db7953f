import { isIP } from 'node:net';
import { messages, shorten } from '../../messages';
import { eventTypes, isEventType, type EventType } from './event-types';
import { type NetworkPolicy, isRefusedAddress, plainHttpAllowed } from '../../outbound/address-policy';

/** What a subscription's URL or event list became, or why it is refused (French, for the administrator). */
export type Checked<T> = { ok: true; value: T } | { ok: false; reason: string };

/** Longer URLs are refused (the usual limit of browsers and proxies; a subscription URL needs no more). */
export const maxSubscriptionUrlLength = 2048;

const refused = (reason: string): { ok: false; reason: string } => ({ ok: false, reason });

/**
 * An IP-literal host the delivery would refuse on AWS (lib/outbound/address-policy.ts: any address
 * that is no public host, NAT64 and 6to4 included), or a `localhost` name (RFC 6761 keeps it on
 * the machine): refused at once. A name that resolves into those ranges is refused by the delivery
 * itself, which checks the resolved addresses at every attempt. The WHATWG URL parser has already
 * written IPv4 in dotted decimal (`0x7f.1` is `127.0.0.1`) and IPv6 in brackets.
 */
function isNonPublicHost(hostname: string): boolean {
  if (hostname === 'localhost' || hostname.endsWith('.localhost')) return true;
  const bare = hostname.replace(/^\[(.*)\]$/, '$1');
  return isIP(bare) !== 0 && isRefusedAddress(bare);
}

/**
 * The URL the WHATWG parser reads, or undefined. Not `URL.canParse`: once V8 optimizes it, Node 20
 * and 22 answer false for a host such as `bücher.example` (AikidoSec/firewall-node#1086, "Fix
 * Unicode URL parsing after warmup"), so a warm function would refuse a URL it accepted cold.
 */
function parsed(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/**
 * A subscription URL as typed (docs/api.md#outbound-events): a complete URL of at most 2048 characters,
 * `https`, without user or password; plain `http` only to 127.0.0.1 or localhost in the local run;
 * on AWS no IP-literal private, loopback or link-local host. Kept as the parser writes it (`href`).
 */
export function checkSubscriptionUrl(value: string, network: NetworkPolicy): Checked<string> {
  const text = value.trim();
  if (text.length > maxSubscriptionUrlLength) {
    return refused(messages.admin.subscription.urlTooLong(text.length, maxSubscriptionUrlLength));
  }
  const url = parsed(text);
  if (url === undefined) return refused(messages.admin.subscription.invalidUrl(text));
  if (url.href.length > maxSubscriptionUrlLength) {
    return refused(messages.admin.subscription.urlTooLong(url.href.length, maxSubscriptionUrlLength));
  }
  const localHttp = url.protocol === 'http:' && plainHttpAllowed(url.hostname, network);
  if (url.protocol !== 'https:' && !localHttp) return refused(messages.admin.subscription.httpsRequired(text));
  if (url.username !== '' || url.password !== '') return refused(messages.admin.subscription.urlCredentials);
  if (network === 'aws' && isNonPublicHost(url.hostname)) {
    return refused(messages.admin.subscription.privateHost(url.hostname));
  }
  return { ok: true, value: url.href };
}

/**
 * `--events a,b` as typed: known types (`isEventType`, exact spelling), blanks and duplicates
 * dropped, kept in the order of `eventTypes`; absent, all seven.
 */
export function checkEventTypes(value: string | undefined): Checked<EventType[]> {
  if (value === undefined) return { ok: true, value: [...eventTypes] };
  const named = new Set(
    value
      .split(',')
      .map((type) => type.trim())
      .filter((type) => type !== ''),
  );
  if (named.size === 0) return refused(messages.admin.subscription.noEventType);
  const unknown = [...named].filter((type) => !isEventType(type)).map((type) => shorten(type, 40));
  if (unknown.length > 0) {
    return refused(messages.admin.subscription.unknownEventTypes(unknown.join(', '), eventTypes.join(', ')));
  }
  return { ok: true, value: eventTypes.filter((type) => named.has(type)) };
}
