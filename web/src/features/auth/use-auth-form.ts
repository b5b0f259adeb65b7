// The one form pattern of the auth screens: every action goes through `action`. Client checks run first, then one
// call at a time, so nothing is sent twice. Failures show as field errors and a form message (docs/behaviour.md:
// Messages). An answer after the screen is gone is ignored.
import { useCallback, useEffect, useRef, useState } from 'react'
import { NETWORK_ERROR_MESSAGE, type ErrorBody } from '../../api/error-messages.ts'
import { collectErrors, describeFailure, type FieldErrors } from './validation.ts'

/** An openapi-fetch answer, as the auth calls give it. */
export interface Answer<D> {
  data?: D
  error?: ErrorBody
  response: Response
}

export interface FormAction<D> {
  /** The client-side checks, by field: a message, or null when the field is fine. */
  check?: Record<string, string | null>
  send: () => Promise<Answer<D>>
  onData: (data: D) => void | Promise<void>
  /** Handles a failure itself; returns false to leave it to the form (field errors and the form message). */
  onFailure?: (answer: Answer<D>) => boolean | Promise<boolean>
}

/**
 * @example
 * const form = useAuthForm(['email'])
 * const onSubmit = form.action(() => ({
 *   check: { email: checkEmail(email) },
 *   send: () => api.POST('/api/auth/forgot', { body: { email } }),
 *   onData: () => navigate(PATHS.otp),
 * }))
 * <form onSubmit={onSubmit}>…<SubmitButton busy={form.busy} …/></form>
 */
export function useAuthForm(knownFields: readonly string[]) {
  const running = useRef(false)
  const mounted = useRef(false)
  const [busy, setBusy] = useState(false)
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({})
  const [formError, setFormError] = useState<string | null>(null)

  useEffect(() => {
    mounted.current = true
    return () => {
      mounted.current = false
    }
  }, [])

  const showFailure = useCallback(
    (body: ErrorBody | null) => {
      const fields = Object.entries(body?.fields ?? {})
      setFieldErrors(Object.fromEntries(fields.filter(([name]) => knownFields.includes(name))))
      const others = fields.filter(([name]) => !knownFields.includes(name))
      setFormError(others.length > 0 ? others.map(([, message]) => message).join(' ') : describeFailure(body))
    },
    [knownFields],
  )

  const perform = useCallback(
    async <D>({ check, send, onData, onFailure }: FormAction<D>) => {
      const errors = check ? collectErrors(check) : null
      setFieldErrors(errors ?? {})
      if (errors || running.current) return
      running.current = true
      setBusy(true)
      setFormError(null)
      try {
        const answer = await send()
        if (!mounted.current) return
        if (answer.data) await onData(answer.data)
        else if (!(await onFailure?.(answer))) showFailure(answer.error ?? null)
      } catch {
        if (mounted.current) setFormError(NETWORK_ERROR_MESSAGE)
      } finally {
        running.current = false
        if (mounted.current) setBusy(false)
      }
    },
    [showFailure],
  )

  /** An event handler for one action; `build` runs at the event, so it reads the fields' current values. */
  const action =
    <D>(build: () => FormAction<D>) =>
    (event?: { preventDefault(): void }) => {
      event?.preventDefault()
      void perform(build())
    }

  return { busy, fieldErrors, formError, setFormError, action }
}
