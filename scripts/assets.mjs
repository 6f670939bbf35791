#!/usr/bin/env node
// `node scripts/assets.mjs`: copies the package files the Worker serves as static assets into
// public/ (scripts/lib/assets.mjs). Offline: it reads node_modules only.
import { buildAssets } from "./lib/assets.mjs";

buildAssets();
