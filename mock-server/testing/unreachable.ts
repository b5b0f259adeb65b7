// An origin no server can answer: nothing can listen on port 0, so a connection to it is refused at once. A port a
// server was given and then closed is not that: under npm test another server can be given it the next moment, and
// then answers (a clean-clone run of 0e5765e failed so).
export const UNREACHABLE_ORIGIN = 'http://127.0.0.1:0'
