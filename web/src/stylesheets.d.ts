// Stylesheets the app imports for their effect (Vite bundles them): TypeScript checks that a side-effect import
// resolves, and a .css file has no types to resolve to.
declare module '*.css'
