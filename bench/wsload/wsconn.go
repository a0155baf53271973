package main

import (
	"bufio"
	"context"
	"crypto/rand"
	"crypto/sha1"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"time"
)

// wsConn is the client side of one WebSocket connection (RFC 6455), as
// little of it as wsload needs: a handshake, masked frames written as they
// are or built beforehand ([appendFrame]), whole messages read with pings
// answered, and the close handshake. A load tool that spends less CPU per
// message leaves more of the machine's two cores to the server it
// measures (issue 15): the library client masked and wrote every frame
// with its own system call.
type wsConn struct {
	nc net.Conn
	br *bufio.Reader
}

// Frame opcodes.
const (
	opContinuation = 0x0
	opText         = 0x1
	opClose        = 0x8
	opPing         = 0x9
	opPong         = 0xA
)

// maxMessage is the largest message wsConn reads (as the library client's
// read limit was).
const maxMessage = 64 << 20

// wsGUID is the handshake's constant (RFC 6455 §1.3).
const wsGUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

// dialWS connects to the ws:// URL u and completes the handshake within
// ctx.
func dialWS(ctx context.Context, u string) (*wsConn, error) {
	pu, err := url.Parse(u)
	if err != nil || pu.Scheme != "ws" {
		return nil, fmt.Errorf("dial %s: want a ws:// URL", u)
	}
	host := pu.Host
	if pu.Port() == "" {
		host = net.JoinHostPort(pu.Hostname(), "80")
	}
	var d net.Dialer
	nc, err := d.DialContext(ctx, "tcp", host)
	if err != nil {
		return nil, fmt.Errorf("dial %s: %w", u, err)
	}
	c := &wsConn{nc: nc, br: bufio.NewReader(nc)}
	if err := c.handshake(ctx, pu); err != nil {
		nc.Close()
		return nil, fmt.Errorf("dial %s: %w", u, err)
	}
	return c, nil
}

// handshake sends the upgrade request and checks the answer.
func (c *wsConn) handshake(ctx context.Context, u *url.URL) error {
	defer c.bound(ctx)()
	var nonce [16]byte
	_, _ = rand.Read(nonce[:])
	key := base64.StdEncoding.EncodeToString(nonce[:])
	req := &http.Request{Method: http.MethodGet, URL: &url.URL{Scheme: "http", Host: u.Host, Path: u.Path, RawQuery: u.RawQuery},
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1, Host: u.Host, Header: http.Header{
			"Connection": {"Upgrade"}, "Upgrade": {"websocket"}, "Sec-Websocket-Version": {"13"}, "Sec-Websocket-Key": {key}}}
	if err := req.Write(c.nc); err != nil {
		return err
	}
	resp, err := http.ReadResponse(c.br, req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	sum := sha1.Sum([]byte(key + wsGUID))
	if resp.StatusCode != http.StatusSwitchingProtocols {
		return fmt.Errorf("handshake answered %s", resp.Status)
	}
	if resp.Header.Get("Sec-WebSocket-Accept") != base64.StdEncoding.EncodeToString(sum[:]) {
		return errors.New("handshake: wrong Sec-WebSocket-Accept")
	}
	return nil
}

// bound makes the connection's reads and writes fail once ctx is done or
// past its deadline, until the returned function is called.
func (c *wsConn) bound(ctx context.Context) (unbound func()) {
	dl, _ := ctx.Deadline()
	_ = c.nc.SetDeadline(dl)
	stop := context.AfterFunc(ctx, func() { _ = c.nc.SetDeadline(time.Unix(1, 0)) })
	return func() {
		stop()
		_ = c.nc.SetDeadline(time.Time{})
	}
}

// appendFrame appends to dst one final client frame of opcode carrying
// payload, masked with key.
func appendFrame(dst []byte, opcode byte, payload []byte, key [4]byte) []byte {
	dst = append(dst, 0x80|opcode)
	switch n := len(payload); {
	case n < 126:
		dst = append(dst, 0x80|byte(n))
	case n <= 0xFFFF:
		dst = append(dst, 0x80|126)
		dst = binary.BigEndian.AppendUint16(dst, uint16(n))
	default:
		dst = append(dst, 0x80|127)
		dst = binary.BigEndian.AppendUint64(dst, uint64(n))
	}
	dst = append(dst, key[:]...)
	for i, b := range payload {
		dst = append(dst, b^key[i&3])
	}
	return dst
}

// newMaskKey returns a random masking key.
func newMaskKey() (key [4]byte) {
	_, _ = rand.Read(key[:])
	return key
}

// write sends one message of opcode within ctx.
func (c *wsConn) write(ctx context.Context, opcode byte, payload []byte) error {
	defer c.bound(ctx)()
	_, err := c.nc.Write(appendFrame(nil, opcode, payload, newMaskKey()))
	return err
}

// read returns the next data message within ctx, answering pings on the
// way; a close frame ends it with an error.
func (c *wsConn) read(ctx context.Context) ([]byte, error) {
	defer c.bound(ctx)()
	var msg []byte
	for {
		fin, opcode, payload, err := c.readFrame(maxMessage - len(msg))
		if err != nil {
			return nil, err
		}
		switch opcode {
		case opPing:
			if _, err := c.nc.Write(appendFrame(nil, opPong, payload, newMaskKey())); err != nil {
				return nil, err
			}
			continue
		case opPong:
			continue
		case opClose: // answered with its status, as the protocol asks
			_, _ = c.nc.Write(appendFrame(nil, opClose, payload[:min(2, len(payload))], newMaskKey()))
			return nil, fmt.Errorf("connection closed by the server (%s)", closeReason(payload))
		}
		msg = append(msg, payload...)
		if fin {
			return msg, nil
		}
	}
}

// readFrame reads one frame of at most limit payload bytes.
func (c *wsConn) readFrame(limit int) (fin bool, opcode byte, payload []byte, err error) {
	var h [14]byte
	if _, err := io.ReadFull(c.br, h[:2]); err != nil {
		return false, 0, nil, err
	}
	fin, opcode, masked := h[0]&0x80 != 0, h[0]&0x0F, h[1]&0x80 != 0
	n := uint64(h[1] & 0x7F)
	switch n {
	case 126:
		if _, err := io.ReadFull(c.br, h[2:4]); err != nil {
			return false, 0, nil, err
		}
		n = uint64(binary.BigEndian.Uint16(h[2:4]))
	case 127:
		if _, err := io.ReadFull(c.br, h[2:10]); err != nil {
			return false, 0, nil, err
		}
		n = binary.BigEndian.Uint64(h[2:10])
	}
	if n > uint64(limit) {
		return false, 0, nil, fmt.Errorf("message over %d bytes", maxMessage)
	}
	var key [4]byte
	if masked { // servers do not mask; accept it anyway
		if _, err := io.ReadFull(c.br, key[:]); err != nil {
			return false, 0, nil, err
		}
	}
	payload = make([]byte, n)
	if _, err := io.ReadFull(c.br, payload); err != nil {
		return false, 0, nil, err
	}
	if masked {
		for i := range payload {
			payload[i] ^= key[i&3]
		}
	}
	return fin, opcode, payload, nil
}

// closeReason describes a close frame's payload: its status and reason.
func closeReason(payload []byte) string {
	if len(payload) < 2 {
		return "no status"
	}
	return fmt.Sprintf("status %d %q", binary.BigEndian.Uint16(payload), payload[2:])
}

// close does the close handshake (status 1000) within a few seconds and
// closes the connection.
func (c *wsConn) close() error {
	defer c.nc.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.write(ctx, opClose, binary.BigEndian.AppendUint16(nil, 1000)); err != nil {
		return err
	}
	defer c.bound(ctx)()
	for {
		_, opcode, _, err := c.readFrame(maxMessage)
		if err != nil {
			return fmt.Errorf("close: %w", err)
		}
		if opcode == opClose {
			return nil
		}
	}
}

// closeNow closes the connection without the close handshake.
func (c *wsConn) closeNow() { c.nc.Close() }
