/** The geo provider adapters by GEO_PROVIDER name (docs/GEO.md says what each supports). */
import type { GeoProvider } from "./provider";
import { scrapingBee } from "./scrapingbee";

export const GEO_PROVIDERS = {
  scrapingbee: scrapingBee,
} as const satisfies Record<string, GeoProvider>;

export type GeoProviderName = keyof typeof GEO_PROVIDERS;
