import type { Delivery, DeliveryStatus } from '../model';

/** A delivery as the admin command line shows it (docs/api.md#outbound-events, `subscription deliveries`). */
export type DeliveryView = {
  id: string;
  event_id: string;
  type: string;
  status: DeliveryStatus;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: string | null;
  created_at: string;
};

export const deliveryView = (item: Delivery): DeliveryView => ({
  id: item.id,
  event_id: item.event_id,
  type: item.event_type,
  status: item.status,
  attempts: item.attempts,
  last_status_code: item.last_status_code,
  last_error: item.last_error,
  next_attempt_at: item.next_attempt_at,
  created_at: item.created_at,
});
