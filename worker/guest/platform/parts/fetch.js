// The Fetch Standard's classes (no `fetch` yet: that arrives with network policy) and the File
// API: Headers, Request, Response, FormData, Blob, File.
import { Blob, File } from './fetch/blob.js';
import { FormData } from './fetch/form-data.js';
import { Headers } from './fetch/headers.js';
import { Request } from './fetch/request.js';
import { Response } from './fetch/response.js';

export const globals = { Blob, File, FormData, Headers, Request, Response };
export const modules = {};
