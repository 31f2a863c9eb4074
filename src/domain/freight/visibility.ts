/**
 * The visibility rules of freight visibility (docs/freight-visibility.md), as pure functions of instants
 * in epoch milliseconds. A shipper sees a vehicle only through a live subscription: not cancelled, its
 * window containing now, and a carrier share that is not revoked and contains now. Even then, only a
 * location fixed inside the visible window (subscription ∩ share) is shown; an older fix stays hidden.
 */
export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;
/** Subscription windows: at least 1 hour, at most 5 days, starting at most 2 weeks ahead. */
export const MIN_SUBSCRIPTION_MS = HOUR_MS;
export const MAX_SUBSCRIPTION_MS = 5 * DAY_MS;
export const MAX_START_AHEAD_MS = 14 * DAY_MS;

export interface Window {
  start: number;
  end: number;
}

export interface ShareTimes {
  starts_at: string;
  ends_at: string;
  revoked_at: string | null;
}

export interface SubscriptionTimes {
  start_time: string;
  end_time: string;
  cancelled_at: string | null;
}

const ms = (iso: string) => Date.parse(iso);

/** A share that is not revoked and whose window contains `now`. */
export function shareLive(s: ShareTimes, now: number): boolean {
  return !s.revoked_at && ms(s.starts_at) <= now && now < ms(s.ends_at);
}

/** A subscription that is not cancelled and whose window contains `now` (shares aside). */
export function subscriptionLive(s: SubscriptionTimes, now: number): boolean {
  return !s.cancelled_at && ms(s.start_time) <= now && now < ms(s.end_time);
}

/**
 * What a subscription may show at `now`: the subscription window intersected with the live shares of
 * its vehicle (all of which contain now, so their union is one interval), or null when nothing is visible.
 */
export function visibleWindow(sub: SubscriptionTimes, shares: ShareTimes[], now: number): Window | null {
  if (!subscriptionLive(sub, now)) return null;
  const live = shares.filter((s) => shareLive(s, now));
  if (live.length === 0) return null;
  const start = Math.max(ms(sub.start_time), Math.min(...live.map((s) => ms(s.starts_at))));
  const end = Math.min(ms(sub.end_time), Math.max(...live.map((s) => ms(s.ends_at))));
  return { start, end };
}

/** Whether a fix taken at `locatedAt` may be shown within window `w`. */
export function fixVisible(locatedAt: string, w: Window | null): boolean {
  if (!w) return false;
  const t = ms(locatedAt);
  return t >= w.start && t < w.end;
}

/** A single share covering the whole window [start, end): the consent a subscription needs. */
export function shareCovering<T extends ShareTimes>(shares: T[], start: number, end: number): T | undefined {
  return shares.find((s) => !s.revoked_at && ms(s.starts_at) <= start && end <= ms(s.ends_at));
}

/** The first rule a requested subscription window breaks, as [field, problem], or null. */
export function windowProblem(start: number, end: number, now: number): [string, string] | null {
  if (end <= start) return ['end_time', 'must be after start_time'];
  if (end - start < MIN_SUBSCRIPTION_MS) return ['end_time', 'must be at least 1 hour after start_time'];
  if (end - start > MAX_SUBSCRIPTION_MS) return ['end_time', 'must be at most 5 days after start_time'];
  if (start > now + MAX_START_AHEAD_MS) return ['start_time', 'must be at most 2 weeks from now'];
  if (end <= now) return ['end_time', 'must be in the future'];
  return null;
}

/** Windows [a, b) and [c, d) share an instant. */
export function overlaps(a: Window, b: Window): boolean {
  return a.start < b.end && b.start < a.end;
}

/** Great-circle distance in statute miles (haversine, mean Earth radius 3958.8 mi). */
export function distanceMi(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLon = (lon2 - lon1) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 3958.8 * Math.asin(Math.min(1, Math.sqrt(h)));
}
