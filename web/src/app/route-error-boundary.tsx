// Does what a route's errorElement did under the data router (docs/behaviour.md: Routes).
// A screen that throws shows the error page instead, until the next navigation.
import { Component, type ReactNode } from 'react'
import { useLocation, type Location } from 'react-router-dom'

interface BoundaryProps {
  location: Location
  fallback: (error: unknown) => ReactNode
  children: ReactNode
}

interface BoundaryState {
  failure: { error: unknown } | null
  location: Location
}

class Boundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { failure: null, location: this.props.location }

  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    return { failure: { error } }
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState): Partial<BoundaryState> | null {
    // A navigation (a new location object) gives the screens another try.
    return props.location !== state.location ? { failure: null, location: props.location } : null
  }

  override render() {
    return this.state.failure ? this.props.fallback(this.state.failure.error) : this.props.children
  }
}

/**
 * @example
 * <RouteErrorBoundary fallback={(error) => <ErrorPage error={error} />}><Outlet /></RouteErrorBoundary>
 */
export function RouteErrorBoundary({ fallback, children }: Omit<BoundaryProps, 'location'>) {
  return (
    <Boundary location={useLocation()} fallback={fallback}>
      {children}
    </Boundary>
  )
}
