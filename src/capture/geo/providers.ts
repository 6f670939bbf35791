/** The geo provider adapters by GEO_PROVIDER name (docs/GEO.md says what each supports). */
import type { GeoProviderName } from "../../config";
import type { GeoProvider } from "./provider";
import { scrapingBee } from "./scrapingbee";

/** One adapter per name config.ts accepts (GEO_PROVIDER_ENDPOINTS). */
export const GEO_PROVIDERS = {
  scrapingbee: scrapingBee,
} as const satisfies Record<GeoProviderName, GeoProvider>;
