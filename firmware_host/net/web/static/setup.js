// @ts-check
// The set-up page's words in the reader's language (/shared/i18n.js).
import { load } from "../shared/i18n.js";

await load();
