// The forecast a batch was made with, kept in D1's batch_forecasts so its page can set it against
// what the batch's runs spent. A failed write or read never fails the batch: the forecast is then absent.
import { errorText } from './error-text.ts';
import type { ForecastRequest } from '../schema/forecast-request.ts';
import type { StoredForecast } from '../schema/forecast.ts';
import { forecastSchema } from '../schema/forecast.ts';
import { forecastFrom } from './analytics/forecast.ts';

/** Forecasts the new batch from the runs before it and stores that; null (logged) when D1 failed. */
export async function recordBatchForecast(
  db: D1Database,
  batchId: string,
  request: ForecastRequest,
  now: number,
): Promise<StoredForecast | null> {
  try {
    const forecast = await forecastFrom(db, request, batchId);
    await db
      .prepare('INSERT OR REPLACE INTO batch_forecasts (batch_id, created_at, forecast) VALUES (?, ?, ?)')
      .bind(batchId, now, JSON.stringify(forecast))
      .run();
    return { createdAt: new Date(now).toISOString(), forecast };
  } catch (err) {
    console.error(`batch ${batchId}: its forecast was not stored (the batch is made without it): ${errorText(err)}`);
    return null;
  }
}

/** The batch's stored forecast; null when there is none (made before forecasts, or D1 failed then or now). */
export async function readBatchForecast(db: D1Database, batchId: string): Promise<StoredForecast | null> {
  try {
    const row = await db
      .prepare('SELECT created_at, forecast FROM batch_forecasts WHERE batch_id = ?')
      .bind(batchId)
      .first<{ created_at: number; forecast: string }>();
    if (!row) return null;
    const forecast = forecastSchema.safeParse(JSON.parse(row.forecast));
    if (!forecast.success) throw new Error(`the stored forecast does not parse: ${forecast.error.message}`);
    return { createdAt: new Date(row.created_at).toISOString(), forecast: forecast.data };
  } catch (err) {
    console.error(`batch ${batchId}: its forecast could not be read: ${errorText(err)}`);
    return null;
  }
}
