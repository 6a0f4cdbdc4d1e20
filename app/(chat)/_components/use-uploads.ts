'use client';

import { useCallback, useRef, useState } from 'react';
import { useFailureText } from '@/app/_components/failure-text';
import { HttpStatusError, UnreachableError } from '@/app/_components/request-errors';
import { cleanFileName } from '@/lib/files/sniff';

/** What POST /api/files answers (SPEC §7.4). */
export type UploadedFile = { id: string; url: string; name: string; mediaType: string; size: number };

/** A file picked, dropped or pasted into the composer: uploading, uploaded, or failed (with why). */
export type Upload = {
  key: string;
  /** The name as the server stores it (cleanFileName), never the browser's raw one. */
  name: string;
  size: number;
  /** 0…1 while uploading. */
  progress: number;
  status: 'uploading' | 'done' | 'error';
  error?: string;
  file?: UploadedFile;
  /** An object URL of an image for the chip's preview (revoked when the chip goes). */
  preview?: string;
};

/** Uploads with XMLHttpRequest: fetch cannot report upload progress, which big files need. */
function send(
  file: File,
  onProgress: (fraction: number) => void,
  xhr: XMLHttpRequest,
): Promise<UploadedFile> {
  return new Promise((resolve, reject) => {
    const form = new FormData();
    form.set('file', file, file.name);
    xhr.open('POST', '/api/files');
    xhr.responseType = 'json';
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      const body = xhr.response as (UploadedFile & { error?: { message?: string } }) | null;
      if (xhr.status === 201 && body?.url) resolve(body);
      else reject(new HttpStatusError(xhr.status, body?.error?.message));
    };
    xhr.onerror = (e) => reject(new UnreachableError(e));
    xhr.onabort = () => reject(new Error('cancelled'));
    xhr.send(form);
  });
}

let counter = 0;

/** The composer's attachments: add files (each uploads at once), remove one (cancels its upload), clear. */
export function useUploads() {
  const failureText = useFailureText();
  const [uploads, setUploads] = useState<Upload[]>([]);
  const requests = useRef(new Map<string, XMLHttpRequest>());

  const update = useCallback((key: string, patch: Partial<Upload>) => {
    setUploads((list) => list.map((u) => (u.key === key ? { ...u, ...patch } : u)));
  }, []);

  const add = useCallback(
    (files: Iterable<File>) => {
      for (const file of files) {
        const key = `upload-${++counter}`;
        const preview = file.type.startsWith('image/') ? URL.createObjectURL(file) : undefined;
        setUploads((list) => [
          ...list,
          { key, name: cleanFileName(file.name), size: file.size, progress: 0, status: 'uploading', preview },
        ]);
        const xhr = new XMLHttpRequest();
        requests.current.set(key, xhr);
        send(file, (progress) => update(key, { progress }), xhr)
          .then((uploaded) => update(key, { status: 'done', progress: 1, file: uploaded }))
          .catch((err: unknown) => update(key, { status: 'error', error: failureText(err) }))
          .finally(() => requests.current.delete(key));
      }
    },
    [update, failureText],
  );

  const remove = useCallback((key: string) => {
    requests.current.get(key)?.abort();
    setUploads((list) => {
      const gone = list.find((u) => u.key === key);
      if (gone?.preview) URL.revokeObjectURL(gone.preview);
      return list.filter((u) => u.key !== key);
    });
  }, []);

  /** After sending: the chips go (their previews with them). */
  const clear = useCallback(() => {
    setUploads((list) => {
      for (const u of list) if (u.preview) URL.revokeObjectURL(u.preview);
      return [];
    });
  }, []);

  const ready = uploads.flatMap((u) => (u.status === 'done' && u.file ? [u.file] : []));
  const uploading = uploads.some((u) => u.status === 'uploading');
  return { uploads, add, remove, clear, ready, uploading };
}
