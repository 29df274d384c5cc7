package server

import "net/http"

// dashboard is the team dashboard's handler (filled in below).
func (s *Server) dashboard() (http.Handler, error) {
	return http.NotFoundHandler(), nil
}
