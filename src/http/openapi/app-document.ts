/** The document of the app as the worker serves it: what `npm run openapi` writes. */
import { newApp } from "../app";
import { buildDocument } from "./document";

export const appDocument = () => buildDocument(newApp());
