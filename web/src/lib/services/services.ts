// What the screens need from the outside world, provided once by main.tsx or the tests.
// Handed in, so there are no module singletons.
import { createContext, createElement, useContext, type ReactNode } from 'react'
import type { ApiClient } from '../../api/client.ts'
import type { SessionValues } from '../../session/token-storage.ts'
import type { ActivityTracker } from './activity.ts'
import type { ErrorReporter } from '../monitoring/error-queue.ts'
import type { RuntimeConfig } from '../config/runtime-config.ts'
import type { ChunkLoads } from '../navigation/chunk-loads.ts'
import type { Toasts } from '../toasts/toasts.ts'

export interface Services {
  api: ApiClient
  values: SessionValues
  config: RuntimeConfig
  activity: ActivityTracker
  now: () => number
  /** A random URL-safe string (the external sign-in `state`). */
  randomState: () => string
  /** Leaves the app for a full-page address (the external sign-in). */
  assignLocation: (url: string) => void
  userAgent: string
  /** Error reporting (the SDK itself loads after first paint; see ../monitoring/supporting-services.ts). */
  errors: ErrorReporter
  /** The network, for calls that are not the product API (the mock server's control surface). */
  fetch: (input: Request) => Promise<Response>
  /** The page's origin (the mock server's control surface is there, whatever config.apiBase says). */
  origin: string
  /** The toasts (../toasts/toasts.ts). */
  toasts: Toasts
  /** The chunks the user waits for: screens, the error page, the date picker (../navigation/chunk-loads.ts). */
  chunks: ChunkLoads
  /** The page's first paint (../browser/first-paint.ts): work that can wait a frame waits for it. */
  afterFirstPaint: () => Promise<void>
}

const ServicesContext = createContext<Services | null>(null)

export function ServicesProvider({ services, children }: { services: Services; children?: ReactNode }) {
  return createElement(ServicesContext.Provider, { value: services }, children)
}

export function useServices(): Services {
  const services = useContext(ServicesContext)
  if (services === null)
    throw new Error('Failed to read the services: no ServicesProvider above this component.')
  return services
}

/** The services, or null outside a ServicesProvider (pieces that also render alone, like the toaster). */
export function useOptionalServices(): Services | null {
  return useContext(ServicesContext)
}

/** 32 random bytes, base64url: matches the `state` pattern of openapi.yaml (16-256 of [A-Za-z0-9_-]). */
export function createRandomState(crypto: Pick<Crypto, 'getRandomValues'>): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32))
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')
}
