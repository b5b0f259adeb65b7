// Vite for the web app: root web/, output web/dist. `npm run dev` proxies the API, the mock control surface and
// the mock identity provider to the mock server (MOCK_PORT, default 4010).
import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

const root = fileURLToPath(new URL('.', import.meta.url))
const mock = `http://127.0.0.1:${process.env.MOCK_PORT ?? 4010}`

export default defineConfig({
  root,
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
  },
  server: {
    proxy: {
      '/api': { target: mock, changeOrigin: false },
      '/__mock': { target: mock, changeOrigin: false },
      '/idp': { target: mock, changeOrigin: false },
    },
  },
})
